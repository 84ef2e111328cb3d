/**
 * Parses `nft -a -s list table <family> <name>` text into chains and rules: statement
 * text exactly as nft prints it (stateless, so counters do not differ), the comment and
 * the handle. Sets, maps and other blocks are skipped; only chains matter to us.
 */
import type { NftChainState, NftRuleState } from "../firewall.ts";

/** Net `{` minus `}` outside double-quoted strings. */
function braceDelta(line: string): number {
  let depth = 0;
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === "{") depth++;
    else if (!quoted && c === "}") depth--;
  }
  return depth;
}

/** One rule line (`<statement> [comment "x"] # handle N`), or undefined when it is not one. */
export function parseNftRuleLine(line: string): NftRuleState | undefined {
  const h = /^(.*?)\s*# handle (\d+)$/.exec(line);
  if (h === null) return undefined;
  let rule = h[1] as string;
  const handle = Number(h[2]);
  const c = /(?:^|\s)comment "([^"]*)"$/.exec(rule);
  if (c === null) return { rule, handle };
  rule = rule.slice(0, c.index).trimEnd();
  return { rule, comment: c[1] as string, handle };
}

/** The chains of the listed table, in the order nft prints them. */
export function parseNftList(text: string): NftChainState[] {
  const chains: NftChainState[] = [];
  let current: NftChainState | undefined;
  let depth = 0;
  let skipUntil: number | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    const before = depth;
    depth += braceDelta(line);
    if (skipUntil !== undefined) {
      if (depth <= skipUntil) skipUntil = undefined;
      continue;
    }
    if (before === 1) {
      const m = /^chain (\S+) \{/.exec(line);
      if (m !== null) {
        current = { name: (m[1] as string).replace(/^"|"$/g, ""), rules: [] };
        chains.push(current);
      } else if (depth > 1) {
        skipUntil = 1; // a set, map, flowtable, ... block
      }
      continue;
    }
    if (before === 2 && current !== undefined && depth === 2) {
      const rule = parseNftRuleLine(line);
      if (rule !== undefined) current.rules.push(rule);
      continue;
    }
    if (depth <= 1) current = undefined;
  }
  return chains;
}
