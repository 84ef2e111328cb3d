/**
 * The nfnetlink transport's compiler and printer for tests outside this package (the
 * plugins' renderings, packages/plugins/testing/nft-renderings.ts): whether a script
 * compiles without `nft`, what the reader would print back for a rule we write, and the
 * bytes of a script's batch against strace's golden capture. Never used on the plugin path.
 */
import { attrs } from "@tscni/kernel/netlink";
import { scriptMessages } from "../linux/nfnl/batch.ts";
import { compileRule, Unsupported } from "../linux/nfnl/compile.ts";
import * as C from "../linux/nfnl/const.ts";
import { decodeExpr, encodeExpr } from "../linux/nfnl/expr.ts";
import { printRule } from "../linux/nfnl/print.ts";
import { attrList, readTable } from "../linux/nfnl/reader.ts";
import { batchBytes, NfnlSocket, nftMessage } from "../linux/nfnl/socket.ts";
import type { NftChainState } from "../firewall.ts";

export { normalizedBatch, stracedBytes } from "../linux/nfnl/testing/golden.ts";

/** Why the nfnetlink transport would hand `script` to `nft` (its {@link Unsupported} message), or undefined. */
export function nfnlRefusal(script: string): string | undefined {
  try {
    scriptMessages(script);
    return undefined;
  } catch (e) {
    if (e instanceof Unsupported) return e.message;
    throw e;
  }
}

/**
 * The text our reader prints for `rule` once the kernel holds it: compiled, encoded as
 * NFTA_RULE_EXPRESSIONS, decoded and printed (print.ts). Throws Unsupported when the
 * rule would send the reader to `nft`.
 */
export function nfnlPrintBack(family: string, rule: string): string {
  const m = nftMessage(C.NFNL_SUBSYS_NFTABLES << 8, 0, C.NFPROTO.ip);
  m.nest(C.RULE.EXPRESSIONS | C.NLA_F_NESTED);
  for (const e of compileRule(family, rule)) encodeExpr(m, e);
  m.end();
  const bytes = m.build(1);
  // The netlink header (16 bytes) and nfgenmsg (4) come before the attributes.
  const a = attrs(new DataView(bytes.buffer, bytes.byteOffset + 20, bytes.length - 20));
  return printRule(family, attrList(a.get(C.RULE.EXPRESSIONS) as DataView).map(decodeExpr));
}

/** The whole batch (BEGIN, the script's messages, END) our transport sends for `script`. */
export function nfnlBatchBytes(script: string): Uint8Array {
  return batchBytes(scriptMessages(script), 0);
}

/**
 * Sends `script` over nfnetlink in the namespace at `netnsPath` (one acked batch, as the
 * backend does), then reads each of `tables` back with our reader; undefined for a table
 * that does not exist.
 */
export async function nfnlApplyAndRead(
  netnsPath: string,
  script: string,
  tables: readonly { family: string; table: string }[],
): Promise<(NftChainState[] | undefined)[]> {
  const s = await NfnlSocket.open(netnsPath);
  try {
    s.batch(scriptMessages(script));
    return tables.map(({ family, table }) => readTable(s, family, table));
  } finally {
    s.close();
  }
}
