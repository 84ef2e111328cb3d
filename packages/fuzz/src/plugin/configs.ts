/**
 * Valid stdin configs per plugin type for exec-protocol fuzzing (issue 15): addresses only
 * from 198.18.0.0/15 and 2001:db8::/32, host-local's dataDir inside the run's temp dir so
 * its store is isolated, and for chained plugins a prevResult that names the interface the
 * sandbox pre-creates in the container.
 */
import fc from "fast-check";
import { VERSIONS } from "@tscni/spec";
import { CHAINED_IFNAME, NETNS_TOKEN, TMP_TOKEN } from "./env.ts";

/** The host side of the pre-created container interface, with its addresses. */
export const CHAINED_HOST_IFNAME = "fzhost9";
/** The address of {@link CHAINED_IFNAME} in the container, and the host side's. */
export const CHAINED_ADDR = { container: "198.19.200.2/24", host: "198.19.200.1/24" } as const;
/** A device in the host namespace for macvlan, ipvlan, vlan and host-device to use. */
export const HOST_MASTER = "fzhost0";
/** Its veth peer, also in the host namespace: host-device moves it into the container. */
export const HOST_SPARE = "fzhost1";

const octet = fc.integer({ min: 0, max: 15 });
const v4 = octet.map((n) => ({ subnet: `198.18.${n}.0/24`, gateway: `198.18.${n}.1` }));
const v6 = octet.map((n) => ({ subnet: `2001:db8:${n}::/64`, gateway: `2001:db8:${n}::1` }));

/** A host-local IPAM section with one or two ranges and a dataDir in the temp dir. */
export const hostLocalIpam: fc.Arbitrary<Record<string, unknown>> = fc
  .record({ a: v4, b: fc.option(v6, { nil: undefined }), gw: fc.boolean(), routes: fc.boolean() })
  .map(({ a, b, gw, routes }) => ({
    type: "host-local",
    ranges: [[gw ? a : { subnet: a.subnet }], ...(b === undefined ? [] : [[{ subnet: b.subnet }]])],
    ...(routes ? { routes: [{ dst: "0.0.0.0/0" }] } : {}),
    dataDir: `${TMP_TOKEN}/ipam`,
  }));

/** A static IPAM section. */
const staticIpam = octet.map((n) => ({
  type: "static",
  addresses: [{ address: `198.18.${n}.9/24`, gateway: `198.18.${n}.1` }, { address: `2001:db8:${n}::9/64` }],
  routes: [{ dst: "198.19.0.0/16" }],
  dns: { nameservers: ["198.18.0.53"] },
}));

const ipam = fc.oneof({ arbitrary: hostLocalIpam, weight: 4 }, { arbitrary: staticIpam, weight: 1 });

/** The prevResult a runtime hands a chained plugin: the pre-created container interface. */
export const chainedPrevResult = (version: string): Record<string, unknown> =>
  version.startsWith("0.1") || version.startsWith("0.2")
    ? { cniVersion: version, ip4: { ip: CHAINED_ADDR.container, gateway: CHAINED_ADDR.host.split("/")[0] } }
    : {
        cniVersion: version,
        interfaces: [
          { name: CHAINED_HOST_IFNAME, mac: "02:00:00:00:00:01" },
          { name: CHAINED_IFNAME, mac: "02:00:00:00:00:02", sandbox: NETNS_TOKEN },
        ],
        ips: [
          {
            ...(version.startsWith("0.") ? { version: "4" } : {}),
            address: CHAINED_ADDR.container,
            gateway: CHAINED_ADDR.host.split("/")[0],
            interface: 1,
          },
        ],
        routes: [{ dst: "0.0.0.0/0", gw: CHAINED_ADDR.host.split("/")[0] }],
        dns: {},
      };

type Fields = fc.Arbitrary<Record<string, unknown>>;
const none: Fields = fc.constant({});
const mtu = fc.option(fc.integer({ min: 1280, max: 9000 }), { nil: undefined });

/** Each plugin type's own fields; `chained` ones get a prevResult, the others an ipam section. */
const PLUGINS: Readonly<Record<string, { fields: Fields; chained?: boolean; ipam?: boolean }>> = {
  loopback: { fields: none },
  "host-local": { fields: none, ipam: true },
  static: { fields: none, ipam: true },
  dhcp: { fields: fc.constant({ ipam: { type: "dhcp", daemonSocketPath: `${TMP_TOKEN}/dhcp.sock` } }) },
  bridge: {
    ipam: true,
    fields: fc.record({
      bridge: fc.constantFrom("fzbr0", "fzbr1"),
      isGateway: fc.boolean(),
      isDefaultGateway: fc.boolean(),
      ipMasq: fc.boolean(),
      hairpinMode: fc.boolean(),
      promiscMode: fc.boolean(),
      mtu,
      vlan: fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, fc.integer({ min: 1, max: 4094 })),
    }),
  },
  ptp: { ipam: true, fields: fc.record({ ipMasq: fc.boolean(), mtu }) },
  macvlan: {
    ipam: true,
    fields: fc.record({ master: fc.constant(HOST_MASTER), mode: fc.constantFrom("bridge", "private", "vepa"), mtu }),
  },
  ipvlan: { ipam: true, fields: fc.record({ master: fc.constant(HOST_MASTER), mode: fc.constantFrom("l2", "l3") }) },
  vlan: {
    ipam: true,
    fields: fc.record({ master: fc.constant(HOST_MASTER), vlanId: fc.integer({ min: 1, max: 4094 }) }),
  },
  dummy: { ipam: true, fields: none },
  tap: { ipam: true, fields: fc.record({ mtu, multiQueue: fc.boolean() }) },
  "host-device": { ipam: true, fields: fc.constant({ device: HOST_SPARE }) },
  portmap: {
    chained: true,
    fields: fc.record({
      capabilities: fc.constant({ portMappings: true }),
      snat: fc.boolean(),
      runtimeConfig: fc
        .array(
          fc.record({
            hostPort: fc.integer({ min: 1024, max: 65535 }),
            containerPort: fc.integer({ min: 1, max: 65535 }),
            protocol: fc.constantFrom("tcp", "udp", "sctp"),
          }),
          { minLength: 1, maxLength: 3 },
        )
        .map((portMappings) => ({ portMappings })),
    }),
  },
  firewall: { chained: true, fields: fc.record({ backend: fc.constantFrom("iptables", "iptables", "firewalld") }) },
  tuning: {
    chained: true,
    fields: fc.record({
      mtu,
      promisc: fc.boolean(),
      sysctl: fc.constantFrom(
        {},
        { [`net.ipv4.conf.${CHAINED_IFNAME}.rp_filter`]: "1" },
        { "net.ipv4.ip_forward": "1" },
      ),
    }),
  },
  sbr: { chained: true, fields: none },
  bandwidth: {
    chained: true,
    fields: fc.record({
      ingressRate: fc.integer({ min: 1000, max: 1_000_000_000 }),
      ingressBurst: fc.integer({ min: 1000, max: 100_000_000 }),
      egressRate: fc.integer({ min: 1000, max: 1_000_000_000 }),
      egressBurst: fc.integer({ min: 1000, max: 100_000_000 }),
    }),
  },
  vrf: { chained: true, fields: fc.record({ vrfname: fc.constantFrom("fzvrf0", "fzvrf1") }) },
  "cni-shim": { fields: fc.constant({ socketPath: `${TMP_TOKEN}/no-daemon.sock` }) },
};

/** The plugin types we generate configs for: the default set of `cni fuzz plugin`. */
export const PLUGIN_TYPES: readonly string[] = Object.keys(PLUGINS);

/** True when `plugin` is chained (runs on a prevResult, not an ipam section). */
export const isChained = (plugin: string): boolean => PLUGINS[plugin]?.chained === true;

/** A valid config object for `plugin` (an unknown type gets only the common keys). */
export function validConfig(plugin: string): fc.Arbitrary<Record<string, unknown>> {
  const spec = PLUGINS[plugin] ?? { fields: none };
  return fc
    .record({
      version: fc.constantFrom(...VERSIONS),
      name: fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/),
      fields: spec.fields,
      hl: hostLocalIpam,
      st: staticIpam,
      ipam,
      prev: fc.boolean(),
    })
    .map(({ version, name, fields, hl, st, ipam: ip, prev }) => {
      const conf: Record<string, unknown> = { cniVersion: version, name, type: plugin };
      for (const [k, v] of Object.entries(fields)) if (v !== undefined) conf[k] = v;
      if (spec.ipam === true) conf.ipam = plugin === "host-local" ? hl : plugin === "static" ? st : ip;
      // Chained plugins get a prevResult (ADD-7); at 0.1/0.2 there is no chaining, so sometimes none.
      if (spec.chained === true && (prev || !version.startsWith("0.1"))) conf.prevResult = chainedPrevResult(version);
      return conf;
    });
}
