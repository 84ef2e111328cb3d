/**
 * The traffic-control numbers of rtnetlink, from linux/rtnetlink.h, linux/pkt_sched.h,
 * linux/pkt_cls.h and linux/tc_act/tc_mirred.h (stable kernel ABI).
 */

/** `RTM_NEWQDISC`. */
export const RTM_NEWQDISC = 36;
/** `RTM_DELQDISC`. */
export const RTM_DELQDISC = 37;
/** `RTM_GETQDISC`. */
export const RTM_GETQDISC = 38;
/** `RTM_NEWTFILTER`. */
export const RTM_NEWTFILTER = 44;

/** Size of `struct tcmsg`. */
export const TCMSG_LEN = 20;
/** `TCA_KIND`. */
export const TCA_KIND = 1;
/** `TCA_OPTIONS`. */
export const TCA_OPTIONS = 2;

/** `TCA_TBF_PARMS`: `struct tc_tbf_qopt`. */
export const TCA_TBF_PARMS = 1;
/** `TCA_TBF_RATE64`. */
export const TCA_TBF_RATE64 = 4;
/** Size of `struct tc_tbf_qopt` (two 12-byte tc_ratespec, limit, buffer, mtu). */
export const TC_TBF_QOPT_LEN = 36;

/** `TCA_U32_CLASSID`. */
export const TCA_U32_CLASSID = 1;
/** `TCA_U32_SEL`. */
export const TCA_U32_SEL = 5;
/** `TCA_U32_ACT`. */
export const TCA_U32_ACT = 7;
/** `TC_U32_TERMINAL`: the selector's flag for a leaf match. */
export const TC_U32_TERMINAL = 1;

/** `TCA_ACT_KIND`. */
export const TCA_ACT_KIND = 1;
/** `TCA_ACT_OPTIONS`. */
export const TCA_ACT_OPTIONS = 2;
/** `TCA_MIRRED_PARMS`: `struct tc_mirred`. */
export const TCA_MIRRED_PARMS = 2;
/** `TCA_EGRESS_REDIR`. */
export const TCA_EGRESS_REDIR = 1;
/** `TC_ACT_OK`. */
export const TC_ACT_OK = 0;
/** `TC_ACT_STOLEN`. */
export const TC_ACT_STOLEN = 4;

/** `IFLA_TXQLEN`. */
export const IFLA_TXQLEN = 13;
