/**
 * resolv.conf text to a result's `dns` (host-local `dns.go`).
 */
import type { DNS } from "@tscni/spec";

/**
 * Parses resolv.conf text: blank lines, lines starting with `#` or `;`, and lines with
 * fewer than two fields are skipped; `nameserver` appends, the last `domain` wins,
 * `search` and `options` append all their values (§8.3).
 *
 * @example parseResolvConf("nameserver 198.18.0.53\nsearch a b") // { nameservers: [...], search: ["a","b"] }
 */
export function parseResolvConf(text: string): DNS {
  const dns: DNS = {};
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const [key, ...values] = line.split(/\s+/);
    if (values.length === 0) continue;
    switch (key) {
      case "nameserver":
        dns.nameservers = [...(dns.nameservers ?? []), values[0] as string];
        break;
      case "domain":
        dns.domain = values[0] as string;
        break;
      case "search":
        dns.search = [...(dns.search ?? []), ...values];
        break;
      case "options":
        dns.options = [...(dns.options ?? []), ...values];
        break;
    }
  }
  return dns;
}
