/**
 * nf_tables' netlink numbers (linux/netfilter/nf_tables.h, nfnetlink.h), the few that
 * the statements CNI uses need. Every integer attribute of nf_tables is big-endian.
 */

/** NETLINK_NETFILTER, the socket protocol. */
export const NETLINK_NETFILTER = 12;
/** The nftables subsystem of nfnetlink (the high byte of nlmsg_type). */
export const NFNL_SUBSYS_NFTABLES = 10;
/** Batch delimiters (nlmsg_type, no subsystem). */
export const NFNL_MSG_BATCH_BEGIN = 0x10;
export const NFNL_MSG_BATCH_END = 0x11;

/** NFT_MSG_* message types. */
export const MSG = {
  NEWTABLE: 0,
  GETTABLE: 1,
  DELTABLE: 2,
  NEWCHAIN: 3,
  GETCHAIN: 4,
  DELCHAIN: 5,
  NEWRULE: 6,
  GETRULE: 7,
  DELRULE: 8,
} as const;

/** nlmsg flags. */
export const NLM_F = {
  REQUEST: 0x1,
  ACK: 0x4,
  ROOT: 0x100,
  MATCH: 0x200,
  DUMP: 0x300,
  EXCL: 0x200,
  CREATE: 0x400,
  APPEND: 0x800,
} as const;

/** Marks an attribute as nested, as libnftnl does. */
export const NLA_F_NESTED = 0x8000;

/** NFPROTO_* families by nft family name. */
export const NFPROTO = { inet: 1, ip: 2, arp: 3, netdev: 5, bridge: 7, ip6: 10 } as const;

/** NFTA_TABLE_*. */
export const TABLE = { NAME: 1, FLAGS: 2, USE: 3, HANDLE: 4, USERDATA: 6 } as const;
/** NFTA_CHAIN_*. */
export const CHAIN = { TABLE: 1, HANDLE: 2, NAME: 3, HOOK: 4, POLICY: 5, USE: 6, TYPE: 7, USERDATA: 12 } as const;
/** NFTA_HOOK_*. */
export const HOOK = { HOOKNUM: 1, PRIORITY: 2 } as const;
/** NFTA_RULE_*. */
export const RULE = { TABLE: 1, CHAIN: 2, HANDLE: 3, EXPRESSIONS: 4, POSITION: 6, USERDATA: 7 } as const;
/** NFTA_LIST_ELEM and NFTA_EXPR_*. */
export const LIST_ELEM = 1;
export const EXPR = { NAME: 1, DATA: 2 } as const;
/** NFTA_DATA_* and NFTA_VERDICT_*. */
export const DATA = { VALUE: 1, VERDICT: 2 } as const;
export const VERDICT = { CODE: 1, CHAIN: 2 } as const;

/** Verdict codes (NF_* and NFT_*). */
export const VERDICT_CODE = { drop: 0, accept: 1, continue: -1, jump: -3, goto: -4, return: -5 } as const;
/** A verdict's name by code. */
export type VerdictName = keyof typeof VERDICT_CODE;

/** Hook numbers (NF_INET_* and NF_BR_* share them). */
export const HOOKNUM = { prerouting: 0, input: 1, forward: 2, output: 3, postrouting: 4 } as const;

/** Standard priority names (nft's `priority srcnat`), by family kind. */
export function priorityValue(family: string, priority: number | string): number | undefined {
  if (typeof priority === "number") return priority;
  if (/^-?\d+$/.test(priority)) return Number(priority);
  const bridge: Record<string, number> = { dstnat: -300, filter: -200, out: 100, srcnat: 300 };
  const inet: Record<string, number> = { raw: -300, mangle: -150, dstnat: -100, filter: 0, security: 50, srcnat: 100 };
  return (family === "bridge" ? bridge : inet)[priority];
}

/** Expression attributes. */
export const PAYLOAD = { DREG: 1, BASE: 2, OFFSET: 3, LEN: 4 } as const;
export const PAYLOAD_BASE = { ll: 0, nh: 1, th: 2 } as const;
export const META = { DREG: 1, KEY: 2, SREG: 3 } as const;
export const META_KEY = { mark: 3, iifname: 6, oifname: 7, nfproto: 15, l4proto: 16 } as const;
export const CT = { DREG: 1, KEY: 2, DIRECTION: 3, SREG: 4 } as const;
/** NFT_CT_STATE. */
export const CT_KEY_STATE = 0;
/** The NFT_CT_* keys ct-mark.ts compiles (nf_tables.h enum nft_ct_keys). */
export const CT_KEY = {
  state: 0,
  direction: 1,
  status: 2,
  mark: 3,
  src_ip: 19,
  dst_ip: 20,
  src_ip6: 21,
  dst_ip6: 22,
} as const;
/** IP_CT_DIR_* (NFTA_CT_DIRECTION, a u8). */
export const CT_DIR = { original: 0, reply: 1 } as const;
/** `ct status` bits (IPS_*_BIT), in the order nft prints them. */
export const CT_STATUS = {
  expected: 1,
  "seen-reply": 2,
  assured: 4,
  confirmed: 8,
  snat: 16,
  dnat: 32,
  dying: 512,
} as const;
/** `ct state` bits (NF_CT_STATE_BIT, NF_CT_STATE_INVALID_BIT, NF_CT_STATE_UNTRACKED_BIT), in the order nft prints them. */
export const CT_STATES = { invalid: 1, established: 2, related: 4, new: 8, untracked: 64 } as const;
export const CMP = { SREG: 1, OP: 2, DATA: 3 } as const;
export const CMP_OP = { eq: 0, neq: 1 } as const;
export const BITWISE = { SREG: 1, DREG: 2, LEN: 3, MASK: 4, XOR: 5 } as const;
export const IMMEDIATE = { DREG: 1, DATA: 2 } as const;
export const FIB = { DREG: 1, RESULT: 2, FLAGS: 3 } as const;
export const FIB_RESULT_ADDRTYPE = 3;
export const FIB_F_DADDR = 2;
export const RTN_LOCAL = 2;
export const NAT = {
  TYPE: 1,
  FAMILY: 2,
  REG_ADDR_MIN: 3,
  REG_ADDR_MAX: 4,
  REG_PROTO_MIN: 5,
  REG_PROTO_MAX: 6,
  FLAGS: 7,
} as const;
export const NAT_TYPE = { snat: 0, dnat: 1 } as const;
export const NAT_RANGE_MAP_IPS = 1;
export const NAT_RANGE_PROTO_SPECIFIED = 2;
export const MASQ = { FLAGS: 1, REG_PROTO_MIN: 2, REG_PROTO_MAX: 3 } as const;

/** IP protocol numbers nft names in `tcp dport`. */
export const L4PROTO = { tcp: 6, udp: 17, sctp: 132 } as const;

/** The userdata TLV type of a table's, chain's and rule's comment (NFTNL_UDATA_*_COMMENT). */
export const UDATA_COMMENT = 0;
