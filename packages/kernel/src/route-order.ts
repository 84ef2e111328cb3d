/**
 * The order in which Linux lists one table's routes of one family (a route dump), so the
 * fake kernel lists them as Linux does and a plan (`cni plan`, sbr) walks them in the
 * order the plugin will. IPv4 (the FIB trie): by address, a shorter prefix first. IPv6
 * (the fib6 radix tree, walked children first): by the bits both prefixes cover, a
 * prefix after those it contains (`2001:db8::1/128`, `2001:db8::/64`, `fe80::/64`, then
 * `::/0`; checked on Linux 6.18 by plugins/shared/planned-link.linux.test.ts). Pure.
 */
import type { IPNet } from "@tscni/spec/ipnet";

/** Negative when a route to `a` is listed before one to `b` (same family), 0 for the same prefix. */
export function routeDumpOrder(a: IPNet, b: IPNet): number {
  const v6 = a.ip.family === 6;
  const bits = v6 ? 128 : 32;
  const shared = v6 ? Math.min(a.prefix, b.prefix) : bits;
  const va = a.ip.value >> BigInt(bits - shared);
  const vb = b.ip.value >> BigInt(bits - shared);
  return (va < vb ? -1 : va > vb ? 1 : 0) || (v6 ? b.prefix - a.prefix : a.prefix - b.prefix);
}
