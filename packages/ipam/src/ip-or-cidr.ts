/**
 * The reference's `pkg/ip.ParseIP`: a requested address may carry a prefix, which is
 * ignored (CNI_ARGS `IP`, `args.cni.ips`, `runtimeConfig.ips`).
 */
import { type IP, parseCIDR, parseIP } from "@tscni/spec/ipnet";

/**
 * Parses `<ip>[/<prefix>]` and returns the address alone, host bits kept.
 *
 * @example parseIPMaybePrefix("198.18.0.5/24") // { family: 4, value: 3323068421n }
 */
export function parseIPMaybePrefix(text: string): IP | undefined {
  return text.includes("/") ? parseCIDR(text)?.ip : parseIP(text);
}
