export type {
  Family,
  FirewallOp,
  FirewallTx,
  IptablesOp,
  IptChainEnsure,
  IptChainFlush,
  IptChainRemove,
  IptRule,
  IptRuleAppend,
  IptRuleDelete,
  IptRuleInsert,
  IptTable,
  NftBaseChain,
  NftChainEnsure,
  NftChainFlush,
  NftChainRemove,
  NftFamily,
  NftOp,
  NftRuleAdd,
  NftRuleDelete,
  NftTableEnsure,
  NftTableRemove,
} from "./ops.ts";
export { isIptablesOp } from "./ops.ts";
export { FirewallError } from "./firewall.ts";
export type {
  Firewall,
  FirewallBackend,
  FirewallSupport,
  IptChainState,
  NftChainState,
  NftRuleState,
} from "./firewall.ts";
export {
  CHAIN_NAME_LENGTH,
  formatChainName,
  formatComment,
  formatDnatComment,
  formatHashWithPrefix,
  goQuote,
  IPT_COMMENT_MAX,
  NFT_COMMENT_MAX,
  nftMasqComment,
  nftMasqInstanceHash,
  nftMasqNetworkHash,
  trimComment,
} from "./names.ts";
export { BUILTIN_CHAINS, IPT_TARGETS, isBuiltinChain, jumpTarget, nftJumpTargets } from "./builtins.ts";
export { formatIptRule, quoteIptToken, splitIptLine } from "./ipt-tokens.ts";
export { iptTablesOf, renderIptRestore } from "./render-ipt.ts";
export type { IptReads } from "./render-ipt.ts";
export { nftComment, nftTablesOf, renderNftScript } from "./render-nft.ts";
export type { NftReads } from "./render-nft.ts";
export { renderOpLine, renderTx } from "./render-plan.ts";
export { backendWorks, defaultBackend } from "./backend.ts";
export { canonicalIptRule } from "./ipt-canonical.ts";
export {
  isMasqBackend,
  MASQ_BACKENDS,
  MASQ_TABLE,
  planMasqSetup,
  planMasqTeardown,
  setupMasq,
  teardownMasq,
  undoMasq,
  unknownMasqBackend,
} from "./masq/index.ts";
export type { MasqAttachment, MasqBackend } from "./masq/index.ts";
