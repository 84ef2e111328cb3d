/**
 * The rtnetlink numbers the driver uses, from linux/netlink.h, linux/rtnetlink.h,
 * linux/if_link.h, linux/if_addr.h and linux/if_bridge.h (stable kernel ABI).
 */

/** Message types. */
export const NLMSG_ERROR = 2;
/** `NLMSG_DONE`. */
export const NLMSG_DONE = 3;
/** `RTM_NEWLINK`. */
export const RTM_NEWLINK = 16;
/** `RTM_DELLINK`. */
export const RTM_DELLINK = 17;
/** `RTM_GETLINK`. */
export const RTM_GETLINK = 18;
/** `RTM_SETLINK`. */
export const RTM_SETLINK = 19;
/** `RTM_NEWADDR`. */
export const RTM_NEWADDR = 20;
/** `RTM_DELADDR`. */
export const RTM_DELADDR = 21;
/** `RTM_GETADDR`. */
export const RTM_GETADDR = 22;
/** `RTM_NEWROUTE`. */
export const RTM_NEWROUTE = 24;
/** `RTM_DELROUTE`. */
export const RTM_DELROUTE = 25;
/** `RTM_GETROUTE`. */
export const RTM_GETROUTE = 26;

/** Header flags. */
export const NLM_F_REQUEST = 0x1;
/** `NLM_F_ACK`. */
export const NLM_F_ACK = 0x4;
/** `NLM_F_DUMP`. */
export const NLM_F_DUMP = 0x300;
/** `NLM_F_EXCL`. */
export const NLM_F_EXCL = 0x200;
/** `NLM_F_CREATE`. */
export const NLM_F_CREATE = 0x400;
/** In an error message: the request was not echoed in full. */
export const NLM_F_CAPPED = 0x100;
/** In an error message: extended-ack attributes follow. */
export const NLM_F_ACK_TLVS = 0x200;
/** `NLMSGERR_ATTR_MSG`. */
export const NLMSGERR_ATTR_MSG = 1;

/** Address families. */
export const AF_UNSPEC = 0;
/** `AF_INET`. */
export const AF_INET = 2;
/** `AF_BRIDGE`. */
export const AF_BRIDGE = 7;
/** `AF_INET6`. */
export const AF_INET6 = 10;

/** Link attributes (IFLA_*). */
export const IFLA_ADDRESS = 1;
/** `IFLA_IFNAME`. */
export const IFLA_IFNAME = 3;
/** `IFLA_MTU`. */
export const IFLA_MTU = 4;
/** `IFLA_LINK`. */
export const IFLA_LINK = 5;
/** `IFLA_MASTER`. */
export const IFLA_MASTER = 10;
/** `IFLA_OPERSTATE`. */
export const IFLA_OPERSTATE = 16;
/** `IFLA_LINKINFO`. */
export const IFLA_LINKINFO = 18;
/** `IFLA_AF_SPEC`. */
export const IFLA_AF_SPEC = 26;
/** `IFLA_NET_NS_FD`. */
export const IFLA_NET_NS_FD = 28;
/** `IFLA_EXT_MASK`. */
export const IFLA_EXT_MASK = 29;
/** `IFLA_LINK_NETNSID`. */
export const IFLA_LINK_NETNSID = 37;
/** `IFLA_IFALIAS`. */
export const IFLA_IFALIAS = 20;
/** `IFLA_INFO_KIND`. */
export const IFLA_INFO_KIND = 1;
/** `IFLA_INFO_DATA`. */
export const IFLA_INFO_DATA = 2;
/** `IFLA_INFO_SLAVE_KIND`. */
export const IFLA_INFO_SLAVE_KIND = 4;
/** `IFLA_INFO_SLAVE_DATA`. */
export const IFLA_INFO_SLAVE_DATA = 5;
/** `VETH_INFO_PEER`. */
export const VETH_INFO_PEER = 1;
/** `IFLA_BR_VLAN_FILTERING`. */
export const IFLA_BR_VLAN_FILTERING = 7;
/** `IFLA_BR_VLAN_DEFAULT_PVID`. */
export const IFLA_BR_VLAN_DEFAULT_PVID = 39;
/** `IFLA_BRPORT_MODE`. */
export const IFLA_BRPORT_MODE = 4;
/** `IFLA_BRPORT_ISOLATED`. */
export const IFLA_BRPORT_ISOLATED = 33;
/** `IFLA_VLAN_ID`. */
export const IFLA_VLAN_ID = 1;
/** `IFLA_BRIDGE_FLAGS`. */
export const IFLA_BRIDGE_FLAGS = 0;
/** `IFLA_BRIDGE_VLAN_INFO`. */
export const IFLA_BRIDGE_VLAN_INFO = 2;
/** `BRIDGE_FLAGS_SELF`. */
export const BRIDGE_FLAGS_SELF = 2;
/** `BRIDGE_VLAN_INFO_PVID`. */
export const BRIDGE_VLAN_INFO_PVID = 2;
/** `BRIDGE_VLAN_INFO_UNTAGGED`. */
export const BRIDGE_VLAN_INFO_UNTAGGED = 4;
/** IFLA_EXT_MASK bit: leave the (large) statistics out of link replies. */
export const RTEXT_FILTER_SKIP_STATS = 1 << 3;

/** Link flags. */
export const IFF_UP = 0x1;
/** `IFF_PROMISC`. */
export const IFF_PROMISC = 0x100;
/** `IFF_ALLMULTI`. */
export const IFF_ALLMULTI = 0x200;
/** `IFLA_TXQLEN`: the transmit queue length (u32). */
export const IFLA_TXQLEN = 13;
/** `IFLA_PROMISCUITY`: the promiscuity count (u32). */
export const IFLA_PROMISCUITY = 30;

/** Address attributes and flags. */
export const IFA_ADDRESS = 1;
/** `IFA_LOCAL`. */
export const IFA_LOCAL = 2;
/** `IFA_BROADCAST`. */
export const IFA_BROADCAST = 4;
/** `IFA_FLAGS`. */
export const IFA_FLAGS = 8;
/** `IFA_F_NODAD`. */
export const IFA_F_NODAD = 0x02;
/** `IFA_F_DADFAILED`. */
export const IFA_F_DADFAILED = 0x08;
/** `IFA_F_TENTATIVE`. */
export const IFA_F_TENTATIVE = 0x40;
/** `IFA_F_NOPREFIXROUTE`. */
export const IFA_F_NOPREFIXROUTE = 0x200;

/** Route attributes, types and constants. */
export const RTA_DST = 1;
/** `RTA_OIF`. */
export const RTA_OIF = 4;
/** `RTA_GATEWAY`. */
export const RTA_GATEWAY = 5;
/** `RTA_PRIORITY`. */
export const RTA_PRIORITY = 6;
/** `RTA_PREFSRC`. */
export const RTA_PREFSRC = 7;
/** `RTA_METRICS`. */
export const RTA_METRICS = 8;
/** `RTA_MULTIPATH`. */
export const RTA_MULTIPATH = 9;
/** `RTA_TABLE`. */
export const RTA_TABLE = 15;
/** `RTAX_MTU`. */
export const RTAX_MTU = 2;
/** `RTAX_ADVMSS`. */
export const RTAX_ADVMSS = 8;
/** `RTM_F_CLONED`. */
export const RTM_F_CLONED = 0x200;
/** `RTNH_F_ONLINK`. */
export const RTNH_F_ONLINK = 4;
/** `RT_TABLE_UNSPEC`. */
export const RT_TABLE_UNSPEC = 0;
/** `RT_TABLE_MAIN`. */
export const RT_TABLE_MAIN = 254;
/** `RTN_UNICAST`. */
export const RTN_UNICAST = 1;
/** `RTN_LOCAL`. */
export const RTN_LOCAL = 2;
/** `RTPROT_BOOT`. */
export const RTPROT_BOOT = 3;
/** `RT_SCOPE_UNIVERSE`. */
export const RT_SCOPE_UNIVERSE = 0;
/** `RT_SCOPE_LINK`. */
export const RT_SCOPE_LINK = 253;
/** `RT_SCOPE_HOST`. */
export const RT_SCOPE_HOST = 254;
/** `RT_SCOPE_NOWHERE`. */
export const RT_SCOPE_NOWHERE = 255;

/** Scope numbers as iproute2 names them (rtnl_rtscope_n2a); others print as numbers. */
export const SCOPE_NAMES: Readonly<Record<number, string>> = {
  0: "global",
  200: "site",
  253: "link",
  254: "host",
  255: "nowhere",
};

/** Route protocols as iproute2 names them (rtnl_rtprot_n2a); others print as numbers. */
export const PROTOCOL_NAMES: Readonly<Record<number, string>> = {
  0: "unspec",
  1: "redirect",
  2: "kernel",
  3: "boot",
  4: "static",
  8: "gated",
  9: "ra",
  10: "mrt",
  11: "zebra",
  12: "bird",
  13: "dnrouted",
  14: "xorp",
  15: "ntk",
  16: "dhcp",
  18: "keepalived",
  42: "babel",
  99: "openr",
  186: "bgp",
  187: "isis",
  188: "ospf",
  189: "rip",
  192: "eigrp",
};

/** IFLA_OPERSTATE values (RFC 2863) as iproute2 prints them. */
export const OPER_STATES = ["UNKNOWN", "NOTPRESENT", "DOWN", "LOWERLAYERDOWN", "TESTING", "DORMANT", "UP"] as const;

/** ARPHRD_* numbers whose names or address formats iproute2 treats specially. */
export const ARPHRD_LOOPBACK = 772;
/** `ARPHRD_TUNNEL`. */
export const ARPHRD_TUNNEL = 768;
/** `ARPHRD_TUNNEL6`. */
export const ARPHRD_TUNNEL6 = 769;
/** `ARPHRD_SIT`. */
export const ARPHRD_SIT = 776;
/** `ARPHRD_IPGRE`. */
export const ARPHRD_IPGRE = 778;
/** `ARPHRD_IP6GRE`. */
export const ARPHRD_IP6GRE = 823;
