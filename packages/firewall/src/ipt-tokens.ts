/**
 * iptables rule text as `iptables-save` writes it and `iptables-restore` reads it: tokens
 * separated by spaces, a token with anything but letters, digits, `_` and `-` in double
 * quotes with `"`, `\` and `'` escaped by a backslash (xtables_save_string), and inside
 * quotes a backslash takes the next character literally (add_param_to_argv).
 */
import type { IptRule } from "./ops.ts";

const PLAIN = /^[A-Za-z0-9_\-./:,!=+@%[\]]+$/;

/** One token in restore syntax, quoted only when it must be. */
export function quoteIptToken(token: string): string {
  if (PLAIN.test(token)) return token;
  return `"${token.replace(/["\\']/g, (c) => `\\${c}`)}"`;
}

/** A rule's tokens as one restore line fragment. */
export function formatIptRule(rule: IptRule): string {
  return rule.map(quoteIptToken).join(" ");
}

/** Splits a saved line into tokens, undoing the quoting (the inverse of {@link formatIptRule}). */
export function splitIptLine(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let inToken = false;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quoted) {
      if (c === "\\" && i + 1 < line.length) cur += line[++i];
      else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') {
      quoted = true;
      inToken = true;
    } else if (c === " " || c === "\t") {
      if (inToken) out.push(cur);
      cur = "";
      inToken = false;
    } else {
      cur += c;
      inToken = true;
    }
  }
  if (inToken) out.push(cur);
  return out;
}
