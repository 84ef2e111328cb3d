/**
 * valibot schemas of {@link KernelOp} and {@link KernelBatch}: validate a batch that comes
 * from outside (`cni plan --batch FILE`) before printing or applying it. Names and paths
 * are restricted to what one `ip -batch` line can carry safely (no whitespace, quotes or
 * a leading `#`, which iproute2's batch tokenizer would read as syntax).
 */
import * as v from "valibot";
import { parseIP } from "@tscni/spec";
import { isSysctlKey } from "./lines.ts";
import type { KernelBatch, KernelOp } from "./ops.ts";
import { RuleOpSchema, VrfAddSchema } from "./schema-rule.ts";
import { FilterAddSchema, IfbAddSchema, QdiscAddSchema, QdiscDelSchema } from "./schema-tc.ts";

const BATCH_UNSAFE = /[\s"'\\]/;

/** True when `name` is a valid Linux interface name that is also safe on a batch line. */
export function isInterfaceName(name: string): boolean {
  // dev_valid_name: 1..15 bytes, not "." or "..", no "/", ":" or whitespace.
  if (name === "" || name === "." || name === "..") return false;
  if (new TextEncoder().encode(name).length > 15) return false;
  return !/[/:\x00-\x1f\x7f]/.test(name) && !BATCH_UNSAFE.test(name) && !name.startsWith("#");
}

/**
 * The textual family of an IP: 4, 6, or 0 when it does not parse. Ours rather than
 * node:net's isIP, which costs ~6 ms of start-up in a compiled binary.
 */
function textFamily(ip: string): 0 | 4 | 6 {
  if (parseIP(ip) === undefined) return 0;
  return ip.includes(":") ? 6 : 4;
}

/** True for a CIDR with host bits kept, IPv4 or IPv6 (`198.18.0.5/24`, `2001:db8::1/64`). */
export function isCidr(cidr: string): boolean {
  const [ip, len, ...rest] = cidr.split("/");
  if (ip === undefined || len === undefined || rest.length > 0 || !/^\d{1,3}$/.test(len)) return false;
  const family = textFamily(ip);
  return family !== 0 && Number(len) <= (family === 4 ? 32 : 128);
}

const ifname = v.pipe(v.string(), v.check(isInterfaceName, "invalid interface name"));
const netns = v.pipe(
  v.string(),
  v.check(
    (s) => s === "host" || (s.startsWith("/") && !BATCH_UNSAFE.test(s)),
    'netns must be "host" or an absolute path',
  ),
);
const ip = v.pipe(
  v.string(),
  v.check((s) => textFamily(s) !== 0, "invalid IP address"),
);
const cidr = v.pipe(v.string(), v.check(isCidr, "invalid CIDR"));
const mac = v.pipe(v.string(), v.regex(/^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}$/, "invalid MAC address"));
const mtu = v.pipe(v.number(), v.integer(), v.minValue(68), v.maxValue(65535));
const u32 = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(4294967295));
const vid = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(4094));
const scope = v.picklist(["global", "link", "host"]);

const VethAddSchema = v.strictObject({
  op: v.literal("veth.add"),
  ns: netns,
  name: ifname,
  mtu: v.optional(mtu),
  mac: v.optional(mac),
  peer: v.strictObject({ name: ifname, ns: netns, mtu: v.optional(mtu), mac: v.optional(mac) }),
});
const BridgeAddSchema = v.strictObject({
  op: v.literal("bridge.add"),
  ns: netns,
  name: ifname,
  mtu: v.optional(mtu),
  vlanFiltering: v.optional(v.boolean()),
  defaultPvid: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(4094))),
});
const VlanAddSchema = v.strictObject({
  op: v.literal("vlan.add"),
  ns: netns,
  name: ifname,
  parent: ifname,
  id: vid,
  mtu: v.optional(mtu),
  into: v.optional(netns),
});
const MacvlanAddSchema = v.strictObject({
  op: v.literal("macvlan.add"),
  ns: netns,
  name: ifname,
  parent: ifname,
  mode: v.picklist(["private", "vepa", "bridge", "passthru", "source"]),
  mtu: v.optional(mtu),
  mac: v.optional(mac),
  bcqueuelen: v.optional(u32),
  into: v.optional(netns),
});
const IpvlanAddSchema = v.strictObject({
  op: v.literal("ipvlan.add"),
  ns: netns,
  name: ifname,
  parent: ifname,
  mode: v.picklist(["l2", "l3", "l3s"]),
  flag: v.optional(v.picklist(["bridge", "private", "vepa"])),
  mtu: v.optional(mtu),
  into: v.optional(netns),
});
const DummyAddSchema = v.strictObject({
  op: v.literal("dummy.add"),
  ns: netns,
  name: ifname,
  mtu: v.optional(mtu),
  mac: v.optional(mac),
});
const TapAddSchema = v.strictObject({
  op: v.literal("tap.add"),
  ns: netns,
  name: ifname,
  owner: v.optional(u32),
  group: v.optional(u32),
  multiQueue: v.optional(v.boolean()),
  pi: v.optional(v.boolean()),
  vnetHdr: v.optional(v.boolean()),
});
const LinkSetSchema = v.strictObject({
  op: v.literal("link.set"),
  ns: netns,
  name: ifname,
  up: v.optional(v.boolean()),
  mtu: v.optional(mtu),
  mac: v.optional(mac),
  master: v.optional(v.nullable(ifname)),
  promisc: v.optional(v.boolean()),
  newName: v.optional(ifname),
  allmulti: v.optional(v.boolean()),
  txQLen: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(0xffffffff))),
  alias: v.optional(v.pipe(v.string(), v.regex(/^[^\s"'\\#]{0,127}$/, "invalid alias"))),
});
const BridgePortSetSchema = v.strictObject({
  op: v.literal("bridge-port.set"),
  ns: netns,
  name: ifname,
  hairpin: v.optional(v.boolean()),
  isolated: v.optional(v.boolean()),
});
const BridgeVlanSchema = v.strictObject({
  op: v.picklist(["bridge-vlan.add", "bridge-vlan.del"]),
  ns: netns,
  dev: ifname,
  vid,
  pvid: v.optional(v.boolean()),
  untagged: v.optional(v.boolean()),
  self: v.optional(v.boolean()),
});
const LinkMoveSchema = v.strictObject({ op: v.literal("link.move"), ns: netns, name: ifname, to: netns });
const LinkDelSchema = v.strictObject({ op: v.literal("link.del"), ns: netns, name: ifname });
const AddrOpSchema = v.strictObject({
  op: v.picklist(["addr.add", "addr.del"]),
  ns: netns,
  dev: ifname,
  cidr,
  nodad: v.optional(v.boolean()),
  noprefixroute: v.optional(v.boolean()),
  scope: v.optional(scope),
  broadcast: v.optional(ip),
});
const RouteOpSchema = v.strictObject({
  op: v.picklist(["route.add", "route.del"]),
  ns: netns,
  dst: cidr,
  gw: v.optional(ip),
  dev: v.optional(ifname),
  src: v.optional(ip),
  scope: v.optional(scope),
  table: v.optional(u32),
  metric: v.optional(u32),
  mtu: v.optional(mtu),
  advmss: v.optional(u32),
  onlink: v.optional(v.boolean()),
  prepend: v.optional(v.boolean()),
  replace: v.optional(v.boolean()),
  protocol: v.optional(v.picklist(["kernel", "boot", "static"])),
});
const SysctlSetSchema = v.strictObject({
  op: v.literal("sysctl.set"),
  ns: netns,
  key: v.pipe(v.string(), v.check(isSysctlKey, "invalid sysctl key")),
  value: v.pipe(v.string(), v.regex(/^[^\n\x00]*$/, "sysctl value must be one line")),
});

/** Schema of one {@link KernelOp}, discriminated by `op`. */
export const KernelOpSchema = v.variant("op", [
  VethAddSchema,
  BridgeAddSchema,
  VlanAddSchema,
  TapAddSchema,
  LinkSetSchema,
  BridgePortSetSchema,
  BridgeVlanSchema,
  LinkMoveSchema,
  LinkDelSchema,
  AddrOpSchema,
  RouteOpSchema,
  SysctlSetSchema,
  RuleOpSchema,
  VrfAddSchema,
  MacvlanAddSchema,
  IpvlanAddSchema,
  DummyAddSchema,
  IfbAddSchema,
  QdiscAddSchema,
  QdiscDelSchema,
  FilterAddSchema,
]);

/** Schema of a {@link KernelBatch}: an array of operations. */
export const KernelBatchSchema = v.array(KernelOpSchema);

// The schema must produce exactly the ops the port declares (a compile-time check).
type _Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _opsMatch: _Same<v.InferOutput<typeof KernelOpSchema>, KernelOp> = true;
void _opsMatch;

/** Validates unknown input as a batch; returns the batch or the issues' messages with paths. */
export function parseKernelBatch(input: unknown): { ok: true; batch: KernelBatch } | { ok: false; issues: string[] } {
  const r = v.safeParse(KernelBatchSchema, input);
  if (r.success) return { ok: true, batch: r.output };
  return {
    ok: false,
    issues: r.issues.map((i) => {
      const path = (i.path ?? []).map((p) => String(p.key)).join(".");
      return path === "" ? i.message : `${path}: ${i.message}`;
    }),
  };
}
