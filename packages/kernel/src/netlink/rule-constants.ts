/**
 * The rtnetlink numbers of policy rules (linux/fib_rules.h) and VRF devices
 * (linux/if_link.h) that constants.ts does not carry, kept beside their one user.
 */

/** `RTM_NEWRULE`. */
export const RTM_NEWRULE = 32;
/** `RTM_DELRULE`. */
export const RTM_DELRULE = 33;
/** `RTM_GETRULE`. */
export const RTM_GETRULE = 34;
/** `NLM_F_REPLACE`. */
export const NLM_F_REPLACE = 0x100;
/** `FRA_DST`. */
export const FRA_DST = 1;
/** `FRA_SRC`. */
export const FRA_SRC = 2;
/** `FRA_IIFNAME`. */
export const FRA_IIFNAME = 3;
/** `FRA_PRIORITY`. */
export const FRA_PRIORITY = 6;
/** `FRA_TABLE`. */
export const FRA_TABLE = 15;
/** `FRA_OIFNAME`. */
export const FRA_OIFNAME = 17;
/** `FR_ACT_TO_TBL`: the `lookup` action. */
export const FR_ACT_TO_TBL = 1;
/** `IFLA_VRF_TABLE` (inside IFLA_INFO_DATA of kind `vrf`). */
export const IFLA_VRF_TABLE = 1;
/** Size of `struct fib_rule_hdr`. */
export const FIB_RULE_HDR_LEN = 12;
/** Table names `ip rule` prints (rtnl_rttable_n2a). */
export const TABLE_NAMES: Readonly<Record<string, number>> = { local: 255, main: 254, default: 253 };
