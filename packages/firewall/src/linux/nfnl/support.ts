/**
 * SupportsNFTables (SPEC H-3, the reference's pkg/utils/netfilter.go via knftables.New)
 * without running `nft`: the same question, "may this namespace add a table, with a
 * comment or else without one", asked of the kernel in process as `nft --check` asks it:
 * a batch without its END, which the kernel validates, answers message by message, and
 * aborts, so nothing is ever made. knftables also wants nft v1.0.1 or later; that is a
 * condition on the tool it writes with, and we write over nfnetlink (nfnl/backend.ts).
 */
import { lineMessage } from "./batch.ts";
import type { NfnlSocket } from "./socket.ts";

/** The two `--check` scripts knftables tries, in its order (the second for old kernels). */
export const SUPPORT_CHECKS = [
  'add table ip supports_nftables_test { comment "test" ; }',
  "add table ip supports_nftables_test",
] as const;

/** Whether the kernel behind `s` accepts either check (nothing is applied). */
export function nfnlSupportsNftables(s: NfnlSocket): boolean {
  return SUPPORT_CHECKS.some((line) => {
    try {
      s.batch([lineMessage(line)], true);
      return true;
    } catch {
      return false;
    }
  });
}
