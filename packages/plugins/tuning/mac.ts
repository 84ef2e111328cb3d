/**
 * Go's `net.ParseMAC`, which the reference uses on the configured MAC: EUI-48, EUI-64 and
 * 20-byte InfiniBand addresses, as `xx:xx:..`, `xx-xx-..` or `xxxx.xxxx...`.
 */

const HEX = /^[0-9a-fA-F]+$/;

function groups(s: string, sep: string, width: number): number[] | undefined {
  const parts = s.split(sep);
  if (parts.some((p) => p.length !== width || !HEX.test(p))) return undefined;
  const out: number[] = [];
  for (const p of parts) for (let i = 0; i < width; i += 2) out.push(Number.parseInt(p.slice(i, i + 2), 16));
  return out;
}

/**
 * The address in Go's `HardwareAddr.String()` form (lowercase, colons), or undefined
 * when Go's parser refuses it.
 *
 * @example parseGoMac("02-AA-00-00-00-01") // "02:aa:00:00:00:01"
 */
export function parseGoMac(s: string): string | undefined {
  if (s.length < 14) return undefined;
  let bytes: number[] | undefined;
  if (s[2] === ":" || s[2] === "-") {
    if ((s.length + 1) % 3 !== 0) return undefined;
    bytes = groups(s, s[2], 2);
  } else if (s[4] === ".") {
    if ((s.length + 1) % 5 !== 0) return undefined;
    bytes = groups(s, ".", 4);
  }
  if (bytes === undefined || ![6, 8, 20].includes(bytes.length)) return undefined;
  return bytes.map((b) => b.toString(16).padStart(2, "0")).join(":");
}

/** The reference's `changeMacAddr` message for a MAC `net.ParseMAC` refuses. */
export function invalidMacMessage(mac: string): string {
  return `invalid args ${mac} for MAC addr: address ${mac}: invalid MAC address`;
}
