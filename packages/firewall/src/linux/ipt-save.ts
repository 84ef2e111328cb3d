/**
 * Parses `iptables-save -t <table>` output into chains and rule tokens (saved form,
 * quotes undone), so rules compare token for token with what we and the reference wrote.
 */
import type { IptChainState } from "../firewall.ts";
import { splitIptLine } from "../ipt-tokens.ts";

/** The chains of `table` in `iptables-save` output, in the order it declares them. */
export function parseIptablesSave(text: string, table: string): IptChainState[] {
  const chains = new Map<string, IptChainState>();
  let inTable = false;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    if (line.startsWith("*")) {
      inTable = line.slice(1) === table;
      continue;
    }
    if (!inTable) continue;
    if (line === "COMMIT") {
      inTable = false;
    } else if (line.startsWith(":")) {
      const name = line.slice(1).split(" ")[0] as string;
      chains.set(name, { name, rules: [] });
    } else if (line.startsWith("-A ")) {
      const [, chain, ...rule] = splitIptLine(line);
      if (chain === undefined) continue;
      let c = chains.get(chain);
      if (c === undefined) chains.set(chain, (c = { name: chain, rules: [] }));
      c.rules.push(rule);
    }
  }
  return [...chains.values()];
}
