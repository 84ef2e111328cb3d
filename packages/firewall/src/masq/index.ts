export { iptMasqChainRules, iptMasqJump, iptMasqLegacyJump, iptMasqSetup, iptMasqTeardown } from "./iptables.ts";
export {
  MASQ_CHAIN,
  MASQ_POSTROUTING,
  MASQ_POSTROUTING_RULES,
  MASQ_TABLE,
  nftMasqRule,
  nftMasqSetup,
  nftMasqTeardown,
} from "./nftables.ts";
export { isMasqBackend, MASQ_BACKENDS, planMasqSetup, planMasqTeardown, unknownMasqBackend } from "./plan.ts";
export type { MasqBackend } from "./plan.ts";
export { setupMasq, teardownMasq, undoMasq } from "./run.ts";
export type { MasqAttachment } from "./run.ts";
