/**
 * One allocation range (`allocator/range.go`): a subnet and, within it, the inclusive
 * bounds [rangeStart, rangeEnd] and a gateway that the iterator skips.
 */
import {
  type IP,
  type IPNet,
  compareIP,
  contains,
  familyBits,
  formatCIDR,
  formatIP,
  ipEqual,
  lastAddress,
  networkAddress,
  nextIP,
} from "@tscni/spec/ipnet";
import { type Outcome, fail, ok } from "./outcome.ts";

/** A range as configured: only the subnet is required. */
export interface RangeInput {
  readonly subnet: IPNet;
  readonly rangeStart?: IP;
  readonly rangeEnd?: IP;
  readonly gateway?: IP;
}

/** A canonical range: every field filled in. */
export interface Range {
  readonly subnet: IPNet;
  readonly rangeStart: IP;
  readonly rangeEnd: IP;
  readonly gateway: IP;
}

/**
 * Fills in the defaults and checks the range (`Range.Canonicalize`): gateway network+1,
 * rangeStart network+1 (the iterator skips the gateway), rangeEnd the last address, minus
 * one for IPv4 (the broadcast). The gateway is not checked to lie in the subnet (§8.3).
 *
 * @example canonicalizeRange({ subnet: parseCIDR("10.0.0.0/31")! }) // fails: too small
 */
export function canonicalizeRange(input: RangeInput): Outcome<Range> {
  const { subnet } = input;
  // Can't allocate from a network with no host addresses, e.g. a /31 or /32.
  const maskBits = subnet.bits ?? familyBits(subnet.ip.family);
  if (subnet.prefix > maskBits - 2) return fail(`Network ${formatCIDR(subnet)} too small to allocate from`);
  // A CIDR in IPv6 syntax keeps a 128-bit mask even when its address is IPv4-mapped.
  if (familyBits(subnet.ip.family) !== maskBits) return fail("IPNet IP and Mask version mismatch");
  const network = networkAddress(subnet);
  if (!ipEqual(network, subnet.ip)) {
    return fail(
      `Network has host bits set. For a subnet mask of length ${subnet.prefix} the network address is ${formatIP(network)}`,
    );
  }
  const first = nextIP(network) as IP; // a /30 or larger always has network+1
  const partial: Range = { subnet, gateway: input.gateway ?? first, rangeStart: first, rangeEnd: first };
  let rangeStart = first;
  if (input.rangeStart !== undefined) {
    // Go's Contains checks every bound already set, so a rangeStart after the given
    // rangeEnd is the one reported "not in network".
    const afterEnd =
      input.rangeEnd !== undefined &&
      input.rangeEnd.family === input.rangeStart.family &&
      compareIP(input.rangeStart, input.rangeEnd) > 0;
    if (afterEnd || !rangeContains(partial, input.rangeStart, false)) {
      return fail(`RangeStart ${formatIP(input.rangeStart)} not in network ${formatCIDR(subnet)}`);
    }
    rangeStart = input.rangeStart;
  }
  let rangeEnd = defaultRangeEnd(subnet);
  if (input.rangeEnd !== undefined) {
    if (!rangeContains({ ...partial, rangeStart }, input.rangeEnd, "start")) {
      return fail(`RangeEnd ${formatIP(input.rangeEnd)} not in network ${formatCIDR(subnet)}`);
    }
    rangeEnd = input.rangeEnd;
  }
  return ok({ subnet, gateway: partial.gateway, rangeStart, rangeEnd });
}

function defaultRangeEnd(subnet: IPNet): IP {
  const last = lastAddress(subnet);
  return last.family === 4 ? { family: 4, value: last.value - 1n } : last;
}

/**
 * True when `ip` is in the subnet and within the bounds (`Range.Contains`). While a range
 * is being canonicalised only some bounds are known: `false` checks none, `"start"` only
 * rangeStart.
 */
export function rangeContains(r: Range, ip: IP, bounds: boolean | "start" = true): boolean {
  if (!contains(r.subnet, ip)) return false;
  if (bounds === false) return true;
  if (compareIP(ip, r.rangeStart) < 0) return false;
  return bounds === "start" || compareIP(ip, r.rangeEnd) <= 0;
}

/** True when two ranges of one family share an address (`Range.Overlaps`). */
export function rangesOverlap(a: Range, b: Range): boolean {
  if (a.subnet.ip.family !== b.subnet.ip.family) return false;
  return (
    rangeContains(a, b.rangeStart) ||
    rangeContains(a, b.rangeEnd) ||
    rangeContains(b, a.rangeStart) ||
    rangeContains(b, a.rangeEnd)
  );
}

/** `<rangeStart>-<rangeEnd>`, as upstream prints a range. */
export function rangeString(r: Range): string {
  return `${formatIP(r.rangeStart)}-${formatIP(r.rangeEnd)}`;
}
