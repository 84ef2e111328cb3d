/**
 * Which backends work here, decided as the reference decides (pkg/utils/netfilter.go):
 * iptables works when its tool can read netfilter (ipt-support.ts: go-iptables runs
 * `iptables -t filter -S INPUT 1`, asked in process for iptables-nft), and we also need the
 * save/restore tools; nftables works when nft is v1.0.1 or later and `nft --check` accepts
 * adding a table with a comment, or without one (knftables.New).
 */
import type { ToolExec } from "./exec.ts";

/** The tool paths support detection and the backends use; undefined when not found. */
export interface FirewallTools {
  iptables?: string;
  iptablesSave?: string;
  iptablesRestore?: string;
  ip6tablesSave?: string;
  ip6tablesRestore?: string;
  nft?: string;
}

/** True when the IPv4 iptables tools we run are all there. */
export function hasIptablesTools(tools: FirewallTools): boolean {
  return tools.iptables !== undefined && tools.iptablesSave !== undefined && tools.iptablesRestore !== undefined;
}

/** SupportsNFTables: nft is new enough and may add a table here (checked, never applied). */
export async function supportsNftables(tools: FirewallTools, exec: ToolExec): Promise<boolean> {
  if (tools.nft === undefined) return false;
  const v = await exec([tools.nft, "--version"]);
  if (v.exitCode !== 0 || v.stdout.startsWith("nftables v0.") || v.stdout.startsWith("nftables v1.0.0 ")) return false;
  const check = async (script: string): Promise<boolean> =>
    (await exec([tools.nft as string, "--check", "-f", "-"], script)).exitCode === 0;
  // knftables retries without the object comment (older kernels), so do we.
  return (
    (await check('add table ip supports_nftables_test { comment "test" ; }\n')) ||
    (await check("add table ip supports_nftables_test\n"))
  );
}
