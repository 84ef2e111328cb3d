/**
 * Policy routing rules in the fake kernel (`rule.add` / `rule.del`, issue 12 item 3),
 * as Linux 6.18 keeps them (checked in a throwaway netns): per family a list sorted by
 * priority that starts with `0: lookup local`, `32766: lookup main` (and for IPv4
 * `32767: lookup default`); a rule added without a priority gets the second rule's
 * priority minus one (fib_default_rule_pref), so identical rules pile up at 32765,
 * 32764, ...; `rule.del` removes the first rule matching every selector it names
 * (ENOENT, `not-found`, when none does). Rules are data here: packets are not routed by them.
 */
import { KernelError, type RuleInfo, type RuleOp } from "../index.ts";
import { ruleFamily } from "../index.ts";
import { formatPrefix, ipEqual, isNetwork, type IPNet } from "@tscni/spec/ipnet";
import { requireCidr } from "./addresses.ts";
import { requireNs, type NsState, type World } from "./state.ts";

/** One rule of the model. */
export interface FakeRule {
  family: 4 | 6;
  priority: number;
  from?: IPNet;
  to?: IPNet;
  iif?: string;
  oif?: string;
  table: number;
}

/** The rules a fresh namespace has. */
function defaults(): FakeRule[] {
  return [
    { family: 4, priority: 0, table: 255 },
    { family: 4, priority: 32766, table: 254 },
    { family: 4, priority: 32767, table: 253 },
    { family: 6, priority: 0, table: 255 },
    { family: 6, priority: 32766, table: 254 },
  ];
}

/** The namespace's rules, created with the defaults on first use. */
export function rulesOf(ns: NsState): FakeRule[] {
  ns.rules ??= defaults();
  return ns.rules;
}

const sameNet = (a: IPNet | undefined, b: IPNet | undefined): boolean =>
  a === undefined ? b === undefined : b !== undefined && a.prefix === b.prefix && ipEqual(a.ip, b.ip);

function selector(text: string | undefined, family: 4 | 6): IPNet | undefined {
  if (text === undefined) return undefined;
  const net = requireCidr(text);
  if (net.ip.family !== family) throw new KernelError("invalid", `rule prefix "${text}" is not of family ${family}`);
  // The kernel refuses host bits under the mask (fib4_rule_configure: EINVAL).
  if (!isNetwork(net)) throw new KernelError("invalid", `rule prefix "${text}" has host bits set`);
  return net;
}

/** Applies one `rule.add` or `rule.del`. */
export function applyRule(world: World, op: RuleOp): void {
  const ns = requireNs(world, op.ns);
  const family = ruleFamily(op);
  const from = selector(op.from, family);
  const to = selector(op.to, family);
  const all = rulesOf(ns);
  const mine = all.filter((r) => r.family === family);
  if (op.op === "rule.del") {
    const found = mine.find(
      (r) =>
        (op.priority === undefined || r.priority === op.priority) &&
        (from === undefined || sameNet(r.from, from)) &&
        (to === undefined || sameNet(r.to, to)) &&
        (op.iif === undefined || r.iif === op.iif) &&
        (op.oif === undefined || r.oif === op.oif) &&
        (op.table === undefined || r.table === op.table),
    );
    if (found === undefined)
      throw new KernelError("not-found", `rule not found in netns "${ns.path}": No such file or directory`);
    all.splice(all.indexOf(found), 1);
    return;
  }
  if (op.table === undefined || op.table === 0) throw new KernelError("invalid", "rule.add needs a table");
  const priority = op.priority ?? Math.max(0, (mine[1]?.priority ?? 1) - 1);
  const rule: FakeRule = {
    family,
    priority,
    table: op.table,
    ...(from && { from }),
    ...(to && { to }),
    ...(op.iif !== undefined && { iif: op.iif }),
    ...(op.oif !== undefined && { oif: op.oif }),
  };
  const same = (r: FakeRule): boolean =>
    r.priority === priority &&
    r.table === rule.table &&
    sameNet(r.from, from) &&
    sameNet(r.to, to) &&
    r.iif === rule.iif &&
    r.oif === rule.oif;
  if (mine.some(same)) throw new KernelError("exists", `rule already exists in netns "${ns.path}": File exists`);
  // After every rule of the same or lower priority (fib_nl_newrule's insertion point).
  const after = all.findLastIndex((r) => r.family === family && r.priority <= priority);
  all.splice(after + 1, 0, rule);
}

/** The rules of a namespace as the Kernel port reports them: IPv4 then IPv6, each by priority. */
export function ruleInfos(ns: NsState, family?: 4 | 6): RuleInfo[] {
  return [4, 6]
    .filter((f) => family === undefined || f === family)
    .flatMap((f) => rulesOf(ns).filter((r) => r.family === f))
    .map((r) => ({
      family: r.family,
      priority: r.priority,
      ...(r.from && { from: formatPrefix(r.from) }),
      ...(r.to && { to: formatPrefix(r.to) }),
      ...(r.iif !== undefined && { iif: r.iif }),
      ...(r.oif !== undefined && { oif: r.oif }),
      table: r.table,
    }));
}
