/**
 * Go's `net.IP.IsLoopback` over the text the kernel reports: IPv4 127.0.0.0/8, IPv6 ::1,
 * and IPv4-mapped IPv6 addresses of 127.0.0.0/8.
 */

/** The 8 groups of an IPv6 address, or undefined when it does not parse. */
function ipv6Groups(ip: string): number[] | undefined {
  let text = ip.toLowerCase();
  const tail: number[] = [];
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted !== null) {
    const v4 = ipv4Octets(dotted[2] ?? "");
    if (v4 === undefined) return undefined;
    tail.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0));
    text = dotted[1] === "::" ? "::" : (dotted[1] ?? "").replace(/:$/, "");
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const parse = (s: string): number[] | undefined => {
    if (s === "") return [];
    const out: number[] = [];
    for (const g of s.split(":")) {
      if (!/^[0-9a-f]{1,4}$/.test(g)) return undefined;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = parse(halves[0] ?? "");
  const rest = halves.length === 2 ? parse(halves[1] ?? "") : [];
  if (head === undefined || rest === undefined) return undefined;
  const given = head.length + rest.length + tail.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return undefined;
  return [...head, ...new Array<number>(8 - given).fill(0), ...rest, ...tail];
}

/** The 4 octets of a dotted IPv4 address, or undefined when it does not parse. */
function ipv4Octets(ip: string): number[] | undefined {
  const parts = ip.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.map(Number);
}

/**
 * True for a loopback address (an optional `/prefix` is ignored).
 *
 * @example isLoopbackAddress("127.0.0.1/8") // true
 */
export function isLoopbackAddress(cidr: string): boolean {
  const ip = cidr.split("/")[0] ?? "";
  const v4 = ipv4Octets(ip);
  if (v4 !== undefined) return v4[0] === 127;
  const g = ipv6Groups(ip);
  if (g === undefined) return false;
  const zeroHead = g.slice(0, 5).every((x) => x === 0);
  if (zeroHead && g[5] === 0xffff) return (g[6] ?? 0) >> 8 === 127; // IPv4-mapped
  return zeroHead && g[5] === 0 && g[6] === 0 && g[7] === 1;
}
