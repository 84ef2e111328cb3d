/**
 * A rule as `iptables-save` will print it, from the argv a plugin (or the reference) gives
 * `iptables -A`: addresses first (`-s`, `-d`, masked, with `/32` or `/128`), then
 * interfaces and `-p`, then the matches in the order they were loaded (a port option
 * after `-p tcp` loads `-m tcp`), then the target. Ops must carry this form for reads to
 * compare equal (ops.ts IptRule); the real-kernel test checks it against both iptables.
 * It covers what CNI plugins write; unknown shapes are kept as given.
 */
import { formatCIDR, formatIP, isIPv4, parseCIDR, parseIP } from "@tscni/spec";
import type { Family, IptRule } from "./ops.ts";

const BASE: Readonly<Record<string, string>> = {
  "-s": "-s",
  "--source": "-s",
  "--src": "-s",
  "-d": "-d",
  "--destination": "-d",
  "--dst": "-d",
  "-i": "-i",
  "--in-interface": "-i",
  "-o": "-o",
  "--out-interface": "-o",
  "-p": "-p",
  "--protocol": "-p",
};
const BASE_ORDER = ["-s", "-d", "-i", "-o", "-p"];
const PORT_ALIASES: Readonly<Record<string, string>> = {
  "--destination-port": "--dport",
  "--source-port": "--sport",
  "--destination-ports": "--dports",
  "--source-ports": "--sports",
};
const IMPLICIT = new Set(["--dport", "--sport", "--tcp-flags", "--syn", "--tcp-option"]);

/** An address as iptables-save prints it: host bits cleared, the prefix always written. */
function canonicalAddress(text: string, family: Family): string {
  const bits = family === 4 ? 32 : 128;
  const cidr = text.includes("/") ? parseCIDR(text) : undefined;
  const ip = cidr?.ip ?? parseIP(text);
  if (ip === undefined) return text;
  const prefix = cidr === undefined ? bits : Math.min(cidr.prefix, bits);
  const masked = Uint8Array.from(ip);
  const start = 16 - bits / 8;
  for (let i = 0; i < bits / 8; i++) {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    masked[start + i] = (masked[start + i] ?? 0) & ((0xff << (8 - keep)) & 0xff);
  }
  if (family === 4 && !isIPv4(masked)) return text;
  return family === 4 ? `${formatIP(masked)}/${prefix}` : formatCIDR({ ip: masked, prefix, bits: 128 });
}

/** `tokens` in iptables-save's canonical order and spelling for `family`. */
export function canonicalIptRule(family: Family, tokens: IptRule): string[] {
  const base = new Map<string, string[]>();
  const matches: { name: string; tokens: string[] }[] = [];
  let target: string[] = [];
  let current: { name: string; tokens: string[] } | undefined;
  let proto: string | undefined;
  for (let i = 0; i < tokens.length; i++) {
    let tok = tokens[i] as string;
    const negated = tok === "!";
    if (negated) tok = tokens[++i] ?? "";
    const bang = negated ? ["!"] : [];
    if (tok === "-j" || tok === "--jump" || tok === "-g" || tok === "--goto") {
      target = [tok.startsWith("-g") || tok === "--goto" ? "-g" : "-j", ...tokens.slice(i + 1)];
      break;
    }
    const b = BASE[tok];
    if (b !== undefined) {
      let value = tokens[++i] ?? "";
      if (b === "-s" || b === "-d") {
        value = canonicalAddress(value, family);
        // Any address (`0.0.0.0/0`, `::/0`, portmap's masqAll) is no match at all: not saved.
        if (value.endsWith("/0") && !negated) continue;
      }
      if (b === "-p") proto = value = value.toLowerCase();
      base.set(b, [...bang, b, value]);
      continue;
    }
    if (tok === "-m" || tok === "--match") {
      current = { name: tokens[++i] ?? "", tokens: [] };
      matches.push(current);
      continue;
    }
    const opt = PORT_ALIASES[tok] ?? tok;
    if (IMPLICIT.has(opt) && current?.name !== proto && proto !== undefined) {
      // A tcp/udp option outside its own match loads that match here, as iptables does.
      current = matches.find((m) => m.name === proto) ?? { name: proto, tokens: [] };
      if (!matches.includes(current)) matches.push(current);
    }
    const args: string[] = [];
    while (i + 1 < tokens.length && !(tokens[i + 1] as string).startsWith("-") && tokens[i + 1] !== "!")
      args.push(tokens[++i] as string);
    const into = current ?? { name: "", tokens: [] };
    if (current === undefined) matches.push((current = into));
    into.tokens.push(...bang, opt, ...args);
  }
  const out: string[] = [];
  for (const b of BASE_ORDER) out.push(...(base.get(b) ?? []));
  for (const m of matches) out.push(...(m.name === "" ? [] : ["-m", m.name]), ...m.tokens);
  return [...out, ...target];
}
