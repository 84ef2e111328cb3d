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
export type { Firewall, FirewallSupport, IptChainState, NftChainState, NftRuleState } from "./firewall.ts";
