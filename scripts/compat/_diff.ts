/**
 * What the differential plugin tests share: when they skip, how two answers are made
 * comparable, and the expectations "both sides answered alike" and "both kernels are
 * alike", with the deliberate differences each test names taken out where it names them.
 */
import { expect } from "bun:test";
import { canonical, isRoot, missingReference, run } from "./_reference.ts";
import { sideState } from "./_state.ts";
import type { Answer, Req, Side, SideCtx, Twin } from "./_twin.ts";

/** Why the differential tests cannot run here (no reference plugins, no build, not root), or undefined. */
export function twinSkipReason(): string | undefined {
  return missingReference({ go: false }) ?? (isRoot() ? undefined : "not root (the tests create network namespaces)");
}

/**
 * An answer as compared. Taken out: an empty `dns` (libcni v1.1 prints `"dns":{}` on
 * 1.0.0 results, §3.4), and `"1.1.0"` from the supported versions an incompatible-version
 * error lists: we support spec 1.1.0, the reference v1.1 stops at 1.0.0 (VN-4).
 */
export function comparableAnswer(a: Answer & { raw?: string }): unknown {
  const { raw: _raw, ...rest } = a;
  const out = structuredClone(rest) as Answer & { result?: { dns?: unknown } };
  if (out.result !== undefined && JSON.stringify(out.result.dns) === "{}") delete out.result.dns;
  if (typeof out.error?.details === "string") out.error.details = out.error.details.replace(' "1.1.0"]', "]");
  // Likewise the 1.x result type names the versions it parses (PR-2).
  if (typeof out.error?.msg === "string")
    out.error.msg = out.error.msg.replace("result type supports [1.0.0 1.1.0]", "result type supports [1.0.0]");
  return canonical(out);
}

/** Both answers of `req`, compared; returns them for further checks. */
export async function expectSame(twin: Twin, label: string, req: Req): Promise<Record<Side, Answer & { raw: string }>> {
  const a = await twin.call(req);
  expect({ case: label, answer: comparableAnswer(a.ours) }).toEqual({
    case: label,
    answer: comparableAnswer(a.reference),
  });
  return a;
}

/**
 * Both sides' answers where the installed reference, the plugins v1.1.1 (Debian), predates
 * SPEC.md, which follows upstream main: `ours` is SPEC's answer, `reference` v1.1.1's.
 */
export interface VersionDifference {
  reference: Answer;
  ours: Answer;
}

/**
 * A known version difference: each side's answer is asserted as `want` says, so the test
 * documents what v1.1.1 does and still holds ours to SPEC (README "Known version differences").
 */
export function expectVersionDifference(label: string, got: Record<Side, Answer>, want: VersionDifference): void {
  const answers = (a: VersionDifference) => ({
    reference: comparableAnswer(a.reference),
    ours: comparableAnswer(a.ours),
  });
  expect({ case: label, answers: answers(got) }).toEqual({ case: label, answers: answers(want) });
}

/**
 * Where a known version difference may show: from the reference v1.1.1's answer, the
 * answer SPEC.md gives instead, or undefined where the two must answer alike.
 */
export type KnownDifference = (reference: Answer) => Answer | undefined;

/**
 * A known version difference in the code only: where v1.1.1 answers code 999 (its
 * plugins return plain Go errors, which its skel wraps so), SPEC §4.2 gives `code` (4 for
 * a bad CNI_ARGS, 6 for an undecodable prevResult, 7 for an invalid config), same message.
 */
export function codeInstead(code: number): KnownDifference {
  return (ref) => (ref.exit !== 0 && ref.error?.code === 999 ? { ...ref, error: { ...ref.error, code } } : undefined);
}

const isArgsError = (ref: Answer): boolean => typeof ref.error?.msg === "string" && ref.error.msg.startsWith("ARGS: ");

/** Code 4 (invalid environment variables, SPEC §4.2) where v1.1.1 answers 999 to a bad CNI_ARGS (`ARGS: ...`). */
export const ARGS_CODE: KnownDifference = (ref) => (isArgsError(ref) ? codeInstead(4)(ref) : undefined);

/** Code 7 (invalid network config, SPEC §4.2) where v1.1.1 answers 999 to an invalid plugin or IPAM config. */
export const CONFIG_CODE: KnownDifference = codeInstead(7);

/** `known` only where the reference's message matches `msg` (a case that fails otherwise on some commands). */
export function whereMessage(msg: RegExp, known: KnownDifference): KnownDifference {
  return (ref) => (typeof ref.error?.msg === "string" && msg.test(ref.error.msg) ? known(ref) : undefined);
}

/** {@link ARGS_CODE} for a bad CNI_ARGS, else {@link CONFIG_CODE}: for a case that fails on either. */
export const ARGS_OR_CONFIG_CODE: KnownDifference = (ref) => (isArgsError(ref) ? ARGS_CODE(ref) : CONFIG_CODE(ref));

/**
 * Both answers of `req` alike, or, where `known` maps the reference's answer to another,
 * ours equal to that (the reference's answer is what `known` recognised).
 */
export async function expectSameOrKnown(
  twin: Twin,
  label: string,
  req: Req,
  known?: KnownDifference,
): Promise<Record<Side, Answer & { raw: string }>> {
  const a = await twin.call(req);
  const ours = known?.(a.reference);
  if (ours === undefined)
    expect({ case: label, answer: comparableAnswer(a.ours) }).toEqual({
      case: label,
      answer: comparableAnswer(a.reference),
    });
  else expectVersionDifference(label, a, { reference: a.reference, ours });
  return a;
}

/** Runs labelled cases in batches of `width` at a time (each case must use its own attachment). */
export async function inBatches<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(fn));
}

/**
 * Kernel state lines that differ on purpose: our host veth has `accept_dad=0` (no DAD on
 * its link-local address, so the first forwarded IPv6 packets are not held back ~1.5 s;
 * see packages/plugins/shared/veth.ts), the reference leaves the default 1.
 */
export const OUR_HOST_VETH_ACCEPT_DAD = /^ipv6\/conf\/veth\*\/accept_dad [01]$/;

/**
 * A known version difference in the kernel: v1.1.1 (Debian) leaves `keep_addr_on_down` 0
 * on the container interface it gives IPv6, SPEC H-2 (upstream main) sets it to 1. Asserts
 * each side's value on `ifName` in container `i` and returns the line to leave out of
 * {@link expectSameState} while that interface exists.
 */
export async function expectKeepAddrOnDown(twin: Twin, i: number, ifName: string): Promise<RegExp> {
  const read = async (side: Side) => {
    const ns = twin.sides[side].world.containers[i] ?? "";
    return (
      await run(["ip", "netns", "exec", ns, "cat", `/proc/sys/net/ipv6/conf/${ifName}/keep_addr_on_down`])
    ).stdout.trim();
  };
  // v1.1.1 (Debian) differs: it leaves keep_addr_on_down 0; SPEC H-2 follows upstream main
  expect({ ifName, reference: await read("reference"), ours: await read("ours") }).toEqual({
    ifName,
    reference: "0",
    ours: "1",
  });
  return new RegExp(`^ipv6/conf/${ifName}/keep_addr_on_down [01]$`);
}

function dropLines(state: unknown, drop: readonly RegExp[]): unknown {
  if (Array.isArray(state)) {
    return state.filter((x) => typeof x !== "string" || !drop.some((re) => re.test(x))).map((x) => dropLines(x, drop));
  }
  if (state === null || typeof state !== "object") return state;
  return Object.fromEntries(Object.entries(state).map(([k, v]) => [k, dropLines(v, drop)]));
}

/** Reads both sides' kernels and stores and expects them equal, but for lines matching `drop`. */
export async function expectSameState(
  twin: Twin,
  label: string,
  drop: readonly RegExp[] = [OUR_HOST_VETH_ACCEPT_DAD],
): Promise<void> {
  const [reference, ours] = await Promise.all([sideState(twin.sides.reference), sideState(twin.sides.ours)]);
  expect({ after: label, state: canonical(dropLines(ours, drop)) }).toEqual({
    after: label,
    state: canonical(dropLines(reference, drop)),
  });
}

/** Each side's own result of an ADD, parsed from what it printed (for a later prevResult). */
export function resultsOf(a: Record<Side, { raw: string }>): Record<Side, Record<string, unknown>> {
  return { reference: JSON.parse(a.reference.raw), ours: JSON.parse(a.ours.raw) };
}

/** A config builder whose prevResult is each side's own earlier result, changed by `edit`. */
export function withPrev(
  build: (s: SideCtx) => Record<string, unknown>,
  prev: Record<Side, Record<string, unknown>>,
  edit: (r: Record<string, unknown>, s: SideCtx) => Record<string, unknown> = (r) => r,
): (s: SideCtx) => unknown {
  return (s) => ({ ...build(s), prevResult: edit(structuredClone(prev[s.side]), s) });
}
