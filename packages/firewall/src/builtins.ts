/**
 * What the kernel provides without being asked: the built-in chains of each iptables
 * table and the targets that are not chains. Shared by the fake firewall (which must
 * refuse what the kernel refuses) and the renderers (which must never create or delete
 * a built-in chain).
 */
import type { IptRule, IptTable } from "./ops.ts";

/** The built-in chains of each iptables table, in `iptables-save` order. */
export const BUILTIN_CHAINS: Readonly<Record<IptTable, readonly string[]>> = {
  raw: ["PREROUTING", "OUTPUT"],
  mangle: ["PREROUTING", "INPUT", "FORWARD", "OUTPUT", "POSTROUTING"],
  nat: ["PREROUTING", "INPUT", "OUTPUT", "POSTROUTING"],
  filter: ["INPUT", "FORWARD", "OUTPUT"],
};

/** True when `chain` is built into `table` (it can be neither created nor removed). */
export function isBuiltinChain(table: IptTable, chain: string): boolean {
  return BUILTIN_CHAINS[table].includes(chain);
}

/**
 * Targets that are not user chains: the standard verdicts and the extension targets CNI
 * rule sets use. A `-j` naming anything else must name an existing chain of the table.
 */
export const IPT_TARGETS: ReadonlySet<string> = new Set([
  "ACCEPT",
  "DROP",
  "RETURN",
  "QUEUE",
  "REJECT",
  "LOG",
  "NFLOG",
  "MASQUERADE",
  "SNAT",
  "DNAT",
  "REDIRECT",
  "NETMAP",
  "MARK",
  "CONNMARK",
  "CT",
  "NOTRACK",
  "TPROXY",
  "TCPMSS",
  "CHECKSUM",
  "CLASSIFY",
  "SET",
  "TRACE",
  "AUDIT",
  "NFQUEUE",
]);

/** The chain a rule jumps or goes to (`-j X` / `-g X`), when X is a chain and not a target. */
export function jumpTarget(rule: IptRule): string | undefined {
  for (let i = 0; i < rule.length - 1; i++) {
    const flag = rule[i];
    if (flag === "-j" || flag === "--jump" || flag === "-g" || flag === "--goto") {
      const target = rule[i + 1] as string;
      return IPT_TARGETS.has(target) ? undefined : target;
    }
  }
  return undefined;
}

/** The chains an nftables rule jumps or goes to (`jump X`, `goto X`, also inside verdict maps). */
export function nftJumpTargets(rule: string): string[] {
  return [...rule.matchAll(/\b(?:jump|goto)\s+([A-Za-z0-9_.\-]+|"[^"]*")/g)].map((m) =>
    (m[1] as string).replace(/^"|"$/g, ""),
  );
}
