/**
 * SupportsIPTables (SPEC H-3, §8.5; the reference's pkg/utils/netfilter.go) as the
 * reference decides it, without a process where the outcome is certain. The reference
 * asks go-iptables' ChainExists("filter", "INPUT"), which runs `iptables -t filter -S
 * INPUT 1 --wait` and counts exit status 0 AND 1 as an answer ("does not exist" is still
 * a successful check): only another status (or no run at all) means iptables does not work.
 *
 * iptables-nft 1.8.x exits with a status other than 0 or 1 on that command in one case
 * only: the kernel will not answer NFT_MSG_GETGEN ("Could not fetch rule set generation
 * id", RESOURCE_PROBLEM, 4: no CAP_NET_ADMIN over the namespace, no nf_tables). A failed
 * socket is EXIT_FAILURE (1) and an incompatible `filter` table OTHER_PROBLEM (1). So when
 * `iptables` is the nft multi-call binary, the same GETGEN asked in process over our own
 * nfnetlink socket gives the reference's answer. A legacy binary (its answer depends on the
 * xtables lock and an IPT_SO_GET_INFO getsockopt), or a wrapper script, is asked by running it.
 */
import { realpathSync } from "@tscni/kernel/fs";
import { basename } from "@tscni/spec/path";
import type { ToolExec } from "./exec.ts";

/** NFT_MSG_GETGEN (nf_tables.h); its reply is NFT_MSG_NEWGEN. */
const NFT_MSG_GETGEN = 16;

/** What `iptables` at `path` really is: the nft or the legacy multi-call binary, or unknown (a wrapper, say). */
export function iptablesVariant(path: string): "nft" | "legacy" | undefined {
  try {
    const real = basename(realpathSync(path));
    if (real === "xtables-nft-multi") return "nft";
    if (real === "xtables-legacy-multi") return "legacy";
  } catch {
    // A dangling link: let the run say what happens.
  }
  return undefined;
}

/**
 * Whether the kernel answers NFT_MSG_GETGEN in namespace `ns` (a path; this thread's when
 * unset), as iptables-nft asks it first; undefined when our own socket will not open,
 * which says nothing certain about the tool.
 */
export async function nfGenerationAnswered(ns: string | undefined): Promise<boolean | undefined> {
  const [{ NfnlSocket, nftMessage }, C] = await Promise.all([import("./nfnl/socket.ts"), import("./nfnl/const.ts")]);
  let s: Awaited<ReturnType<typeof NfnlSocket.open>>;
  try {
    s = await NfnlSocket.open(ns);
  } catch {
    return undefined;
  }
  try {
    // AF_UNSPEC, as iptables-nft's mnl_genid_get sends it.
    s.request(nftMessage((C.NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_GETGEN, C.NLM_F.REQUEST | C.NLM_F.ACK, 0));
    return true;
  } catch {
    return false;
  } finally {
    s.close();
  }
}

/**
 * SupportsIPTables for the `iptables` at `path`: in process for iptables-nft, else by
 * running go-iptables' command (`--wait`, so a held xtables lock is waited for, as there).
 */
export async function iptablesChainCheckWorks(path: string, ns: string | undefined, exec: ToolExec): Promise<boolean> {
  if (iptablesVariant(path) === "nft") {
    const answered = await nfGenerationAnswered(ns);
    if (answered !== undefined) return answered;
  }
  const status = (await exec([path, "-t", "filter", "-S", "INPUT", "1", "--wait"])).exitCode;
  return status === 0 || status === 1;
}
