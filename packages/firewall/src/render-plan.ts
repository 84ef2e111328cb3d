/**
 * A transaction as the commands it amounts to, without reading any state: what `cni plan`
 * prints. One line per operation, in iptables and nft command syntax; the real backends
 * write only the difference from what is there (see render-ipt.ts, render-nft.ts), which
 * a trailing `#` note mentions where the command alone would mislead.
 */
import { formatIptRule } from "./ipt-tokens.ts";
import type { FirewallOp, FirewallTx, NftBaseChain } from "./ops.ts";

function chainBody(base: NftBaseChain | undefined, comment: string | undefined): string {
  const parts: string[] = [];
  if (base !== undefined) parts.push(`type ${base.type} hook ${base.hook} priority ${base.priority} ;`);
  if (base?.policy !== undefined) parts.push(`policy ${base.policy} ;`);
  if (comment !== undefined) parts.push(`comment "${comment}" ;`);
  return parts.length === 0 ? "" : ` { ${parts.join(" ")} }`;
}

/** One operation as one readable command line. */
export function renderOpLine(op: FirewallOp): string {
  if (op.op.startsWith("ipt.")) {
    const o = op as Extract<FirewallOp, { family: 4 | 6 }>;
    const head = `${o.family === 4 ? "iptables" : "ip6tables"} -t ${o.table}`;
    switch (o.op) {
      case "ipt.chain.ensure":
        return `${head} -N ${o.chain}  # unless it exists`;
      case "ipt.chain.flush":
        return `${head} -F ${o.chain}  # if it exists`;
      case "ipt.chain.remove":
        return `${head} -X ${o.chain}  # if it exists, after its rules and every jump to it`;
      case "ipt.rule.append":
        return `${head} -A ${o.chain} ${formatIptRule(o.rule)}  # unless present`;
      case "ipt.rule.insert":
        return `${head} -I ${o.chain} 1 ${formatIptRule(o.rule)}  # unless present`;
      case "ipt.rule.delete":
        return `${head} -D ${o.chain} ${formatIptRule(o.rule)}  # every copy, if present`;
    }
  }
  const o = op as Exclude<FirewallOp, { family: 4 | 6 }>;
  const where = `${o.family} ${o.table}`;
  switch (o.op) {
    case "nft.table.ensure":
      return `nft add table ${where}${o.comment === undefined ? "" : ` { comment "${o.comment}" ; }`}`;
    case "nft.table.remove":
      return `nft delete table ${where}  # if it exists`;
    case "nft.chain.ensure":
      return `nft add chain ${where} ${o.chain}${chainBody(o.base, o.comment)}`;
    case "nft.chain.flush":
      return `nft flush chain ${where} ${o.chain}  # if it exists`;
    case "nft.chain.remove":
      return `nft delete chain ${where} ${o.chain}  # if it exists`;
    case "nft.rule.add":
      return `nft ${o.insert ? "insert" : "add"} rule ${where} ${o.chain} ${o.rule}${o.comment === undefined ? "" : ` comment "${o.comment}"`}`;
    case "nft.rule.delete": {
      const which =
        o.comment !== undefined ? `commented "${o.comment}"` : `whose comment starts with "${o.commentPrefix ?? ""}"`;
      return `nft delete rule ${where} ${o.chain} handle <h>  # each rule ${which}`;
    }
  }
}

/** The transaction as command lines, one per operation (a free dry run for `cni plan`). */
export function renderTx(tx: FirewallTx): string[] {
  return tx.map(renderOpLine);
}
