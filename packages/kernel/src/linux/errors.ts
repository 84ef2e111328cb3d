/**
 * iproute2's complaints mapped to {@link KernelErrorKind}s, and a failed batch mapped back
 * to the operation that failed (`Command failed -:LINE`). Pure.
 */
import { KernelError, type KernelErrorKind } from "../kernel.ts";
import type { Segment } from "../segments.ts";

// Checked in order: "argument "x" is wrong: Device does not exist" is not-found, not invalid.
// "Nexthop device required for onlink" is the kernel's ENODEV, which the netlink driver
// classifies by errno (netlink/classify.ts): both drivers say not-found.
// tc refuses a tbf whose burst rounds to 0 bytes itself ("the "burst" parameter is
// mandatory"), where the kernel would say EINVAL: both are invalid.
// EOPNOTSUPP ("Operation not supported") is invalid: the op does not apply to that link
// (bridge port flags on a non-port, a master that is not a bridge) or to this kernel.
const KINDS: readonly [KernelErrorKind, RegExp][] = [
  [
    "not-found",
    /Cannot find device|No such device|[Dd]evice required|qdisc with handle of zero|Cannot find specified qdisc|does not exist|[Aa]ddress not found|No such process|No such file or directory/,
  ],
  // "Exclusivity flag on": EEXIST's extended ack for a qdisc added where one is (sch_api.c).
  ["exists", /File exists|[Aa]ddress already assigned|same name exists|Exclusivity flag on/],
  [
    "unreachable",
    /Nexthop has invalid gateway|Network is unreachable|No route to host|Device for nexthop is not up|Nexthop device is not up|Network is down/,
  ],
  [
    "invalid",
    /Invalid argument|is wrong|is expected rather than|Invalid |less than|greater than|out of range|Unknown device type|Cannot assign requested address|Garbage instead of arguments|Operation not supported|netns is immutable|[Cc]an ?not enslave|Not enough information|[Ee]rror: either|"burst" parameter is mandatory/,
  ],
];

/** The kind of failure an iproute2 error message describes. */
export function classify(stderr: string): KernelErrorKind {
  for (const [kind, re] of KINDS) if (re.test(stderr)) return kind;
  return "other";
}

/** The 1-based batch line `ip -batch` / `bridge -batch` reported as failed, if any. */
export function failedLine(stderr: string): number | undefined {
  const m = /Command failed -:(\d+)/.exec(stderr);
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

/** The first line of stderr that says what went wrong (not the `Command failed` footer). */
export function reason(stderr: string): string {
  const lines = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("Command failed"));
  return (lines[0] ?? "failed without a message").replace(/^Error: /, "").replace(/\.$/, "");
}

/** Which line of a segment failed: the tool's own report, else a line naming the bad argument. */
function failedIndex(seg: Segment, stderr: string): number | undefined {
  const n = failedLine(stderr);
  if (n !== undefined && n >= 1 && n <= seg.lines.length) return n - 1;
  if (seg.lines.length === 1) return 0;
  // Argument errors exit at once without the footer but quote the argument.
  const arg = /argument "([^"]*)" is wrong|rather than "([^"]*)"/.exec(stderr);
  const value = arg?.[1] ?? arg?.[2];
  if (value === undefined) return undefined;
  // The failing line uses the value; an earlier line that merely defines it (the name of a
  // link it creates, `peer name X`) ran fine, since ip stops at the first failure.
  const uses = (l: string): boolean => {
    const w = l.split(" ");
    return w.some((x, j) => x === value && w[j - 1] !== "name" && !(j === 2 && w[0] === "link" && w[1] === "add"));
  };
  const i = seg.lines.findIndex(uses);
  const found = i >= 0 ? i : seg.lines.findIndex((l) => l.split(" ").includes(value));
  return found < 0 ? undefined : found;
}

/** The KernelError for a segment whose tool exited with an error. */
export function segmentError(seg: Segment, stderr: string): KernelError {
  const i = failedIndex(seg, stderr);
  const what = i === undefined ? `${seg.tool} batch in "${seg.ns}"` : `${seg.tool} ${seg.lines[i]}`;
  return new KernelError(classify(stderr), `${what}: ${reason(stderr)}`, i === undefined ? undefined : seg.first + i);
}
