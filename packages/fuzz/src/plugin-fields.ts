/**
 * Every field of every plugin we carry (issue 15 item 1), each with values of the right
 * JSON type that reach past the type check into the plugin's own validation: ranges, enums,
 * CIDRs, MACs, capabilities (`runtimeConfig`), IPAM blocks and `prevResult`s of every
 * version. The keys follow the plugins' config schemas (packages/plugins/<type>/config.ts).
 */
import fc from "fast-check";
import { anyResult } from "@tscni/spec/arbitraries";
import { VERSIONS } from "@tscni/spec";

type Field = fc.Arbitrary<unknown>;

const int = (min: number, max: number): Field =>
  fc.oneof(fc.integer({ min, max }), fc.constantFrom(min - 1, max + 1, 0, -1, 2 ** 31, 2 ** 53));
const oneOf = (...xs: unknown[]): Field => fc.constantFrom(...xs);
const ifName = oneOf("eth0", "cni0", "", "lo", "a".repeat(15), "a".repeat(16), "eth/0", ".", "..", "eth 0");
const mac = oneOf("02:00:00:00:00:01", "0a:58:c6:12:00:01", "ff:ff:ff:ff:ff:ff", "02-00-00-00-00-01", "02:00", "zz");
const v4 = fc.tuple(fc.nat(255), fc.nat(255)).map(([a, b]) => `198.18.${a}.${b}`);
const v6 = fc.nat(0xffff).map((n) => `2001:db8::${n.toString(16)}`);
const ip = fc.oneof(v4, v6, oneOf("", "198.18.0.256", "::ffff:198.18.0.1", "1.2.3", "2001:db8:::1"));
const cidr = fc.oneof(
  fc.tuple(v4, fc.nat(33)).map(([a, p]) => `${a}/${p}`),
  fc.tuple(v6, fc.nat(129)).map(([a, p]) => `${a}/${p}`),
  oneOf("0.0.0.0/0", "::/0", "198.18.0.0", "198.18.0.0/", "/24"),
);
/** Subnets without host bits (what host-local takes), mostly, and any CIDR. */
const subnet = fc.oneof(
  { arbitrary: fc.tuple(fc.nat(1), fc.nat(255)).map(([a, b]) => `198.${18 + a}.${b}.0/24`), weight: 2 },
  { arbitrary: fc.nat(0xffff).map((n) => `2001:db8:${n.toString(16)}::/64`), weight: 1 },
  { arbitrary: cidr, weight: 1 },
);
const inSubnet = fc.oneof(ip, oneOf("198.18.0.1", "198.18.0.254", "198.18.1.1", "2001:db8:0::1"));
const route = fc.record({ dst: cidr, gw: fc.option(ip, { nil: undefined }) }, { requiredKeys: ["dst"] });
const dns = fc.record(
  {
    nameservers: fc.array(ip, { maxLength: 3 }),
    domain: oneOf("example.test", ""),
    search: fc.array(oneOf("a.test", ""), { maxLength: 2 }),
  },
  { requiredKeys: [] },
);
const range = fc.record({ subnet: cidr, rangeStart: ip, rangeEnd: ip, gateway: ip }, { requiredKeys: ["subnet"] });
/** IPAM blocks of the three IPAM plugins (host-local, static, dhcp) and junk types. */
const ipam: Field = fc.oneof(
  fc.record(
    {
      type: oneOf("host-local"),
      ranges: fc.array(fc.array(range, { minLength: 1, maxLength: 2 }), { maxLength: 2 }),
      subnet,
      routes: fc.array(route, { maxLength: 2 }),
      dataDir: oneOf("/run/cni-fuzz", "", "../../etc", "relative"),
      resolvConf: oneOf("/etc/resolv.conf", "/nonexistent"),
    },
    { requiredKeys: ["type"] },
  ),
  fc.record(
    {
      type: oneOf("static"),
      addresses: fc.array(fc.record({ address: cidr, gateway: ip }, { requiredKeys: ["address"] }), { maxLength: 3 }),
      routes: fc.array(route, { maxLength: 2 }),
      dns,
    },
    { requiredKeys: ["type"] },
  ),
  fc.record(
    {
      type: oneOf("dhcp"),
      daemonSocketPath: oneOf("/run/cni/dhcp.sock", ""),
      provide: fc.array(fc.record({ option: oneOf("host-name", "12", "bogus"), value: oneOf("h", "") }), {
        maxLength: 2,
      }),
      request: fc.array(fc.record({ option: oneOf("routers", "121", "bogus"), skipDefault: fc.boolean() }), {
        maxLength: 2,
      }),
      priority: int(-1, 10),
    },
    { requiredKeys: ["type"] },
  ),
  fc.record({ type: oneOf("", "nonexistent", "../host-local") }),
);
const portMapping = fc.record(
  {
    hostPort: int(1, 65535),
    containerPort: int(1, 65535),
    protocol: oneOf("tcp", "udp", "sctp", "TCP", "icmp", ""),
    hostIP: ip,
  },
  { requiredKeys: [] },
);
const bw = {
  ingressRate: int(0, 2 ** 40),
  ingressBurst: int(0, 2 ** 32),
  egressRate: int(0, 2 ** 40),
  egressBurst: int(0, 2 ** 32),
};
const runtimeConfig: Field = fc.record(
  {
    portMappings: fc.array(portMapping, { maxLength: 3 }),
    bandwidth: fc.record(bw, { requiredKeys: [] }),
    mac,
    ips: fc.array(cidr, { maxLength: 2 }),
    deviceID: oneOf("0000:00:00.0", "", "../x"),
    infinibandGUID: oneOf("00:00:00:00:00:00:00:01"),
  },
  { requiredKeys: [] },
);
/**
 * prevResults of every version, and wrong shapes; in one config of eight or so, since a
 * generated result costs ~2 ms, more than all the rest of a case.
 */
const prevResult: Field = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 6 },
  { arbitrary: anyResult.map((r) => JSON.parse(JSON.stringify(r)) as unknown), weight: 3 },
  { arbitrary: oneOf({}, [], "x", { cniVersion: "1.0.0", ips: "x" }, { cniVersion: "9.9.9" }), weight: 1 },
);
const masq = { ipMasq: fc.boolean(), ipMasqBackend: oneOf("iptables", "nftables", "", "ebpf") };
const link = {
  master: ifName,
  mtu: int(0, 65535),
  linkInContainer: fc.boolean(),
};

/** Each plugin type we carry (packages/cli/src/plugins.ts) and its fields. */
export const PLUGIN_FIELDS: Readonly<Record<string, Readonly<Record<string, Field>>>> = {
  bridge: {
    bridge: ifName,
    isGateway: fc.boolean(),
    isDefaultGateway: fc.boolean(),
    forceAddress: fc.boolean(),
    ...masq,
    mtu: int(0, 65535),
    hairpinMode: fc.boolean(),
    promiscMode: fc.boolean(),
    vlan: int(0, 4094),
    vlanTrunk: fc.array(
      fc.record({ minID: int(1, 4094), maxID: int(1, 4094), id: int(1, 4094) }, { requiredKeys: [] }),
      { maxLength: 3 },
    ),
    preserveDefaultVlan: fc.boolean(),
    macspoofchk: fc.boolean(),
    enabledad: fc.boolean(),
    disableContainerInterface: fc.boolean(),
    portIsolation: fc.boolean(),
    args: fc.record({ cni: fc.record({ mac }, { requiredKeys: [] }) }),
  },
  ptp: { ...masq, mtu: int(0, 65535) },
  loopback: {},
  "host-local": {},
  static: {},
  dhcp: { socketPath: oneOf("/run/cni/dhcp.sock", "") },
  portmap: {
    snat: fc.boolean(),
    masqAll: fc.boolean(),
    markMasqBit: int(0, 31),
    externalSetMarkChain: oneOf("CNI-HOSTPORT-SETMARK", ""),
    conditionsV4: fc.array(oneOf("-s", "198.18.0.0/16", "ip saddr 198.18.0.0/16", "!"), { maxLength: 3 }),
    conditionsV6: fc.array(oneOf("-s", "2001:db8::/32", "ip6 saddr 2001:db8::/32"), { maxLength: 3 }),
    backend: oneOf("iptables", "nftables", "", "ebpf"),
    capabilities: fc.constant({ portMappings: true }),
  },
  firewall: {
    backend: oneOf("iptables", "firewalld", "", "nftables"),
    iptablesAdminChainName: oneOf("CNI-ADMIN", "", "x".repeat(40), "-bad"),
    firewalldZone: oneOf("trusted", ""),
    ingressPolicy: oneOf("open", "same-bridge", "isolated", "", "closed"),
  },
  tuning: {
    sysctl: fc.dictionary(
      fc.constantFrom(
        "net.ipv4.conf.eth0.arp_notify",
        "net.ipv4.conf.IFNAME.rp_filter",
        "../../x",
        "kernel.panic",
        "net/core/somaxconn",
      ),
      oneOf("1", "0", "", "x"),
    ),
    mac,
    promisc: fc.boolean(),
    allmulti: fc.boolean(),
    mtu: int(0, 65535),
    txQLen: int(0, 2 ** 31),
    dataDir: oneOf("/run/cni/tuning", "", "../x"),
  },
  sbr: { table: int(0, 2 ** 32), addSourceHints: fc.boolean(), gateways: fc.array(ip, { maxLength: 2 }) },
  vrf: { vrfname: oneOf("vrf0", "", "a".repeat(16)), table: int(0, 2 ** 32) },
  macvlan: { ...link, mode: oneOf("bridge", "private", "vepa", "passthru", "", "x") },
  ipvlan: { ...link, mode: oneOf("l2", "l3", "l3s", "", "x") },
  vlan: { ...link, vlanId: int(0, 4095) },
  dummy: {},
  bandwidth: { ...bw, capabilities: fc.constant({ bandwidth: true }) },
  "host-device": {
    device: ifName,
    hwaddr: mac,
    kernelpath: oneOf("/sys/devices/virtual/net/x", "", "../x"),
    pciBusID: oneOf("0000:00:00.0", ""),
    auxDevice: oneOf("mlx5_core.sf.4", ""),
    dpdkMode: fc.boolean(),
  },
  tap: {
    mac,
    mtu: int(0, 65535),
    selinuxContext: oneOf("system_u:system_r:container_t:s0", ""),
    multiQueue: fc.boolean(),
    owner: int(0, 2 ** 32),
    group: int(0, 2 ** 32),
    bridge: ifName,
  },
};

/** Fields every plugin reads (the common NetConf, SPEC §2.2) beside its own. */
const COMMON: Readonly<Record<string, Field>> = { ipam, dns, runtimeConfig, prevResult };

const networkName = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);

/**
 * A plugin config with the right JSON types in a random subset of its type's fields (and
 * the common ones), as a value. Plugins beyond the typed checks are where the bugs hide.
 * One record arbitrary per type, built once: a `chain` rebuilt them per case, 10 ms each.
 */
export const typedPluginConfig: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  ...Object.entries(PLUGIN_FIELDS).map(([type, own]) =>
    fc
      .record({
        cniVersion: fc.constantFrom(...VERSIONS),
        name: networkName,
        fields: fc.record({ ...own, ...COMMON }, { requiredKeys: [] }),
      })
      .map(({ cniVersion, name, fields }) => ({ cniVersion, name, type, ...fields })),
  ),
);
