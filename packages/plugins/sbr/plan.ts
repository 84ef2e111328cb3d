/**
 * What sbr's ADD does to the container namespace, as data (issue 12 item 3; the
 * reference's `doRoutes` / `doRoutesWithTable` at upstream main), from a read of its
 * rules and of the interface's main-table routes. Per address, in the reference's order:
 * a rule `from <address>/32|128 lookup <table>`, a default route through the gateway (a
 * static one from `gateways` first) in that table, and a copy of each of the interface's
 * routes that belongs to the address (its source or gateway inside the address's subnet,
 * or neither set) into the table; then the interface's routes leave main (or, with
 * `addSourceHints`, only those that are not link-scoped, the subnet routes getting the
 * address as source). Tables: the first from 100 no rule names, the next free one for
 * each further address. Each step carries its undo (ADD-6) and the reference's message
 * for its failure. Pure.
 */
import type { KernelOp, RouteInfo, RuleInfo } from "@tscni/kernel";
import { routeAgain, routeGone } from "../shared/route-copy.ts";
import type { IPConfig100 } from "@tscni/spec";
import {
  contains,
  formatAddr,
  network,
  formatPrefix,
  parseAddr,
  parsePrefix,
  type IP,
  type IPNet,
} from "@tscni/spec/ipnet";
import type { PlanStep } from "../shared/steps.ts";

/** The reference's first table number (`firstTableID`). */
export const FIRST_TABLE = 100;

/** A plan step with the reference's wording of its failure (`Failed to add rule: %v`). */
export interface SbrStep extends PlanStep {
  readonly fails: string;
}

/** What the plan reads from the container namespace. */
export interface SbrView {
  /** Every rule, both families (`RuleList(FAMILY_ALL)`). */
  rules: readonly RuleInfo[];
  /** The interface's routes in main, both families (`RouteList(link, FAMILY_ALL)`). */
  linkRoutes: readonly RouteInfo[];
}

/** The plan: steps applied as one batch with rollback, then `hints`, each applied alone with a warning on failure. */
export interface SbrPlan {
  steps: SbrStep[];
  /** `addSourceHints` only: best-effort changes to main (the reference only logs their failures). */
  hints: KernelOp[];
  /** The table of each address, in order (what CHECK and the tests look for). */
  tables: number[];
}

/** `getNextTableID`: the first table from `candidate` that no rule names. */
export function nextFreeTable(rules: readonly RuleInfo[], candidate: number): number {
  let t = candidate;
  while (rules.some((r) => r.table === t)) t += 1;
  return t;
}

/** The `/32` or `/128` of an address (a rule's source is one address, never a subnet). */
export function hostPrefix(ip: IP): string {
  return `${formatAddr(ip)}/${ip.family === 4 ? 32 : 128}`;
}

const DEFAULT: Record<4 | 6, string> = { 4: "0.0.0.0/0", 6: "::/0" };

const within = (net: IPNet, text: string | undefined): boolean => {
  const ip = text === undefined ? undefined : parseAddr(text);
  return ip !== undefined && ip.family === net.ip.family && contains(net, ip);
};

function ruleStep(ns: string, ip: IP, table: number, fails: string): SbrStep {
  const rule = { ns, from: hostPrefix(ip), table };
  return { op: { op: "rule.add", ...rule }, undo: { op: "rule.del", ...rule }, fails };
}

/** `doRoutesWithTable`: one rule per address into the configured table, nothing else. */
export function planWithTable(ns: string, ips: readonly IPConfig100[], table: number): SbrPlan {
  const steps = ips.flatMap((c) => {
    const net = parsePrefix(c.address);
    return net === undefined ? [] : [ruleStep(ns, net.ip, table, "failed to add rule")];
  });
  return { steps, hints: [], tables: steps.map(() => table) };
}

/** `doRoutes`: the plan for `ifName`'s addresses; `gateways` are the static ones by family. */
export function planRoutes(
  ns: string,
  ifName: string,
  ips: readonly IPConfig100[],
  view: SbrView,
  gateways: { v4?: IP; v6?: IP },
  addSourceHints: boolean,
): SbrPlan {
  const steps: SbrStep[] = [];
  const tables: number[] = [];
  let table = nextFreeTable(view.rules, FIRST_TABLE);
  for (const c of ips) {
    const net = parsePrefix(c.address);
    if (net === undefined) continue;
    tables.push(table);
    steps.push(ruleStep(ns, net.ip, table, "Failed to add rule"));
    const staticGw = net.ip.family === 4 ? gateways.v4 : gateways.v6;
    const gw = staticGw !== undefined ? formatAddr(staticGw) : c.gateway;
    if (gw !== undefined) {
      const dflt = { ns, dst: DEFAULT[net.ip.family], gw, dev: ifName, table };
      steps.push({
        op: { op: "route.add", ...dflt },
        undo: { op: "route.del", ...dflt },
        fails: `Failed to add default route to ${gw}`,
      });
    }
    for (const r of view.linkRoutes) {
      if (!(within(net, r.src) || within(net, r.gw) || (r.src === undefined && r.gw === undefined))) continue;
      steps.push({ op: routeAgain(ns, r, table, true), undo: routeGone(ns, r, table), fails: "Failed to readd route" });
    }
    table = nextFreeTable(view.rules, table + 1);
  }
  const hints: KernelOp[] = [];
  if (addSourceHints) {
    for (const c of ips) {
      const net = parsePrefix(c.address);
      if (net === undefined) continue;
      hints.push({
        op: "route.add",
        ns,
        dst: formatPrefix(network(net)),
        dev: ifName,
        src: formatAddr(net.ip),
        scope: "link",
        replace: true,
      });
    }
    for (const r of view.linkRoutes) if (r.scope !== "link") hints.push(routeGone(ns, r));
  } else {
    // Gateway routes leave first, so a rollback (newest first) brings the connected routes
    // their gateways need back before them; the end state is the reference's.
    const gwFirst = [
      ...view.linkRoutes.filter((r) => r.gw !== undefined),
      ...view.linkRoutes.filter((r) => r.gw === undefined),
    ];
    for (const r of gwFirst)
      steps.push({ op: routeGone(ns, r), undo: routeAgain(ns, r, undefined, false), fails: "Failed to delete route" });
  }
  return { steps, hints, tables };
}
