/**
 * Go's `net.IP.IsLoopback` over the text the kernel reports: IPv4 127.0.0.0/8, IPv6 ::1,
 * and IPv4-mapped IPv6 addresses of 127.0.0.0/8 (Go's `To4` makes them IPv4).
 */
import { parseIP } from "@tscni/spec/ipnet";

/**
 * True for a loopback address (an optional `/prefix` is ignored).
 *
 * @example isLoopbackAddress("127.0.0.1/8") // true
 */
export function isLoopbackAddress(cidr: string): boolean {
  const ip = parseIP(cidr.split("/")[0] ?? "");
  if (ip === undefined) return false;
  return ip.family === 4 ? ip.value >> 24n === 127n : ip.value === 1n;
}
