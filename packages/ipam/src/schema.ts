/**
 * Valibot schemas of what host-local reads from the full plugin config (`allocator.Net`):
 * the `ipam` object, `runtimeConfig.ipRanges`/`ips` and `args.cni.ips`. Addresses are
 * parsed here, at the boundary, with the messages Go's text unmarshallers give.
 */
import { foldToSchema } from "@tscni/spec/go";
import * as v from "valibot";
import { type IP, type IPNet, parseCIDR, parseIP } from "@tscni/spec/ipnet";
import { parseIPMaybePrefix } from "./ip-or-cidr.ts";
import { type Outcome, fail, ok } from "./outcome.ts";

/** A `net.IP` field: an empty string means unset, as Go's `UnmarshalText` treats it. */
const netIP = v.pipe(
  v.string(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    if (dataset.value === "") return undefined;
    const ip = parseIP(dataset.value);
    if (ip !== undefined) return ip;
    addIssue({ message: `invalid IP address: ${dataset.value}` });
    return NEVER;
  }),
);

/** A `types.IPNet` field: `addr/prefix`, host bits kept. */
const ipNet = v.pipe(
  v.string(),
  v.rawTransform(({ dataset, addIssue, NEVER }): IPNet => {
    const net = parseCIDR(dataset.value);
    if (net !== undefined) return net;
    addIssue({ message: `invalid CIDR address: ${dataset.value}` });
    return NEVER;
  }),
);

/** An `ip.IP` field: `<ip>[/<prefix>]`, the prefix ignored (requested IPs, §8.3). */
const requestedIP = v.pipe(
  v.string(),
  v.rawTransform(({ dataset, addIssue, NEVER }): IP => {
    const ip = parseIPMaybePrefix(dataset.value);
    if (ip !== undefined) return ip;
    addIssue({
      message:
        dataset.value === "" ? "cannot understand ip: IP <nil> not v4 nor v6" : `invalid IP address ${dataset.value}`,
    });
    return NEVER;
  }),
);

/** One range as written in the config. */
export const RangeSchema = v.object({
  subnet: ipNet,
  rangeStart: v.nullish(netIP),
  rangeEnd: v.nullish(netIP),
  gateway: v.nullish(netIP),
});

const RangeSetsSchema = v.nullish(v.array(v.nullish(v.array(RangeSchema), [])), []);

/** A route, copied into the result (R04-3): `dst` must be a CIDR, `gw` an address. */
export const RouteSchema = v.looseObject({
  dst: v.pipe(
    v.string(),
    v.check(
      (s) => parseCIDR(s) !== undefined,
      (i) => `invalid CIDR address: ${String(i.input)}`,
    ),
  ),
  gw: v.nullish(
    v.pipe(
      v.string(),
      v.check(
        (s) => s === "" || parseIP(s) !== undefined,
        (i) => `invalid IP address: ${String(i.input)}`,
      ),
    ),
  ),
  mtu: v.nullish(v.number()),
  advmss: v.nullish(v.number()),
  priority: v.nullish(v.number()),
  table: v.nullish(v.number()),
  scope: v.nullish(v.number()),
});

/** The `ipam` object of host-local; the legacy single range sits at its top level. */
export const IPAMSchema = v.object({
  type: v.nullish(v.string(), ""),
  routes: v.nullish(v.array(RouteSchema), []),
  dataDir: v.nullish(v.string(), ""),
  resolvConf: v.nullish(v.string(), ""),
  ranges: RangeSetsSchema,
  subnet: v.nullish(ipNet),
  rangeStart: v.nullish(netIP),
  rangeEnd: v.nullish(netIP),
  gateway: v.nullish(netIP),
});

/** The parts of the full plugin config host-local reads (`allocator.Net`). */
export const NetSchema = v.object({
  name: v.nullish(v.string(), ""),
  cniVersion: v.nullish(v.string(), ""),
  ipam: v.nullish(IPAMSchema),
  runtimeConfig: v.nullish(v.object({ ipRanges: RangeSetsSchema, ips: v.nullish(v.array(requestedIP), []) }), {
    ipRanges: [],
    ips: [],
  }),
  args: v.nullish(v.object({ cni: v.nullish(v.object({ ips: v.nullish(v.array(requestedIP), []) })) })),
});

/** The parsed, not yet canonicalised, config. */
export type NetInput = v.InferOutput<typeof NetSchema>;

/**
 * The struct and Go type of each field path (array indexes left out, as Go leaves them
 * out) of `allocator.Net`, for Go's "cannot unmarshal" message.
 */
const GO_FIELDS: Readonly<Record<string, readonly [string, string]>> = {
  name: ["Net", "string"],
  cniVersion: ["Net", "string"],
  ipam: ["Net", "allocator.IPAMConfig"],
  "ipam.type": ["IPAMConfig", "string"],
  "ipam.dataDir": ["IPAMConfig", "string"],
  "ipam.resolvConf": ["IPAMConfig", "string"],
  "ipam.routes": ["IPAMConfig", "[]*types.Route"],
  "ipam.ranges": ["IPAMConfig", "[]allocator.RangeSet"],
  "ipam.subnet": ["IPAMConfig", "string"],
  "ipam.rangeStart": ["IPAMConfig", "net.IP"],
  "ipam.rangeEnd": ["IPAMConfig", "net.IP"],
  "ipam.gateway": ["IPAMConfig", "net.IP"],
  "ipam.ranges.subnet": ["Range", "string"],
  "ipam.ranges.rangeStart": ["Range", "net.IP"],
  "ipam.ranges.rangeEnd": ["Range", "net.IP"],
  "ipam.ranges.gateway": ["Range", "net.IP"],
  runtimeConfig: [
    "Net",
    'struct { IPRanges []allocator.RangeSet "json:\\"ipRanges,omitempty\\""; IPs []*ip.IP "json:\\"ips,omitempty\\"" }',
  ],
  "runtimeConfig.ipRanges": ["", "[]allocator.RangeSet"],
  "runtimeConfig.ips": ["", "[]*ip.IP"],
  args: ["Net", 'struct { A *allocator.IPAMArgs "json:\\"cni\\"" }'],
  "args.cni": ["", "allocator.IPAMArgs"],
  "args.cni.ips": ["IPAMArgs", "[]*ip.IP"],
};

/** The JSON kind Go names in "cannot unmarshal <kind>". */
function jsonKind(x: unknown): string {
  if (Array.isArray(x)) return "array";
  if (typeof x === "boolean") return "bool";
  return typeof x;
}

/**
 * Parses the full plugin config object. A wrongly typed field fails with Go's
 * `json: cannot unmarshal ...` text, a bad address with its text unmarshaller's words,
 * as the reference's `LoadIPAMConfig` does.
 */
export function parseNet(input: unknown): Outcome<NetInput> {
  // Keys in another letter case are the same fields to Go's decoder.
  const result = v.safeParse(NetSchema, foldToSchema(input, NetSchema));
  if (result.success) return ok(result.output);
  const issue = result.issues[0];
  if (issue.kind !== "schema") return fail(issue.message);
  const keys = (issue.path ?? []).map((p) => p.key);
  const path = keys.filter((k): k is string => typeof k === "string").join(".");
  const field = GO_FIELDS[path];
  if (field === undefined) return fail(`${path}: ${issue.message}`);
  // An element of a list has the list's element type (Go names no index).
  const elementOf = typeof keys[keys.length - 1] === "number";
  let type = field[1];
  if (elementOf) type = type.replace(/^\[\]\*?/, "").replace(/^\[\]/, "");
  if (elementOf && path === "ipam.ranges" && typeof keys[keys.length - 2] === "number") type = "allocator.Range";
  return fail(
    `json: cannot unmarshal ${jsonKind(issue.input)} into Go struct field ${field[0]}.${path} of type ${type}`,
  );
}
