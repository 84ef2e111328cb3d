/**
 * Runs one plugin case in a sandbox and finds every failure: how each exec ended (judge.ts),
 * files written outside the allowed dirs, kernel state a failed ADD left behind, and, after
 * a successful ADD, state its DEL (same env and config) did not remove.
 *
 * Shared infrastructure is not a leak: the reference never deletes the bridge on DEL and
 * keeps its top-level firewall chains (portmap's CNI-HOSTPORT-*, firewall's CNI-FORWARD).
 * So when the host namespace changed, the same case runs again as another container
 * (CNI_CONTAINERID changed): state that stays the same was shared and idempotent, state
 * that grows again was the attachment's own and leaked. A container namespace must come
 * back exactly.
 */
import type { EnvSet } from "./env.ts";
import { judgeExec, type Finding } from "./judge.ts";
import type { PluginCase } from "./case.ts";
import type { Sandbox, SandboxExec } from "./sandbox.ts";
import { diffSnapshots } from "./snapshot.ts";

/** State the runner carries between cases: the last known snapshot, if still valid. */
export interface CaseState {
  baseline: Set<string> | undefined;
}

/** Findings of one exec: its judgement and the files it wrote where it must not. */
function execFindings(x: SandboxExec, prefix: string): Finding[] {
  const out = judgeExec(x.outcome).map((f) => ({ ...f, detail: `${prefix}${f.detail}` }));
  if (x.writes.length > 0)
    out.push({ kind: "write", detail: `${prefix}wrote outside the allowed dirs: ${x.writes.slice(0, 3).join(", ")}` });
  return out;
}

const otherContainer = (env: EnvSet): EnvSet =>
  env.CNI_CONTAINERID === undefined || env.CNI_CONTAINERID === ""
    ? env
    : { ...env, CNI_CONTAINERID: `${env.CNI_CONTAINERID}x` };

/** What the plugin printed, shortened: the error message of a failed ADD. */
const said = (x: SandboxExec): string => {
  const t = x.outcome.stdout.replace(/\s+/g, " ").trim();
  return t.length > 200 ? `${t.slice(0, 200)}...` : t;
};

const brief = (lines: readonly string[]): string =>
  `${lines.slice(0, 30).join("; ")}${lines.length > 30 ? ` (+${lines.length - 30} more)` : ""}`;

/** What a case left: the changed lines when they leaked (else undefined), and the state after. */
interface Residue {
  readonly lines: string[] | undefined;
  readonly final: Set<string>;
}

/**
 * What stayed behind from `before` to `after`: nothing, shared state that `again` (the
 * case repeated as another container, returning the snapshot after it) shows to be
 * idempotent, or a leak.
 */
async function leftBehind(
  before: Set<string>,
  after: Set<string>,
  again: () => Promise<Set<string>>,
): Promise<Residue> {
  const d = diffSnapshots(before, after);
  if (d.length === 0) return { lines: undefined, final: after };
  if (d.some((l) => l.startsWith("+ container") || l.startsWith("- container"))) return { lines: d, final: after };
  const second = await again();
  const d2 = diffSnapshots(after, second);
  return { lines: d2.length === 0 ? undefined : [...d, "and again as another container:", ...d2], final: second };
}

/**
 * Runs `c` in `sb` and returns its findings; resets the sandbox when state leaked, so the
 * next case starts from the baseline again.
 */
export async function runCase(sb: Sandbox, c: PluginCase, state: CaseState): Promise<Finding[]> {
  if (c.env.CNI_COMMAND !== "ADD") {
    // Only ADD is expected to change the kernel: the baseline stays (a command that changed
    // it anyway shows up in the next ADD's difference).
    return execFindings(await sb.exec(c.plugin, c.env, c.stdin), "");
  }
  const before = state.baseline ?? (await sb.snapshot());
  const add = await sb.exec(c.plugin, c.env, c.stdin);
  const findings = execFindings(add, "");
  const killed = add.outcome.timedOut || add.outcome.signal !== null;
  if (killed) {
    // A killed plugin cannot roll back: what it left is the hang's or the signal's story.
    sb.reset();
    state.baseline = undefined;
    return findings;
  }
  if (add.outcome.exitCode !== 0) {
    const after = await sb.snapshot();
    const left = await leftBehind(before, after, async () => {
      await sb.exec(c.plugin, otherContainer(c.env), c.stdin);
      return sb.snapshot();
    });
    if (left.lines !== undefined)
      findings.push({ kind: "leak", detail: `failed ADD (${said(add)}) left ${brief(left.lines)}` });
    settle(sb, state, left);
    return findings;
  }
  // DEL with the same env and config undoes the ADD (DEL-1).
  const del = await sb.exec(c.plugin, { ...c.env, CNI_COMMAND: "DEL" }, c.stdin);
  findings.push(...execFindings(del, "DEL after ADD: "));
  const afterDel = await sb.snapshot();
  const left = await leftBehind(before, afterDel, async () => {
    const env = otherContainer(c.env);
    const add2 = await sb.exec(c.plugin, env, c.stdin);
    if (add2.outcome.exitCode === 0) await sb.exec(c.plugin, { ...env, CNI_COMMAND: "DEL" }, c.stdin);
    return sb.snapshot();
  });
  if (left.lines !== undefined)
    findings.push({ kind: "del-leak", detail: `DEL after a successful ADD left ${brief(left.lines)}` });
  settle(sb, state, left);
  return findings;
}

/** After a leak the sandbox starts over; otherwise the last snapshot is the new baseline. */
function settle(sb: Sandbox, state: CaseState, left: Residue): void {
  if (left.lines === undefined) {
    state.baseline = left.final;
    return;
  }
  sb.reset();
  state.baseline = undefined;
}
