/**
 * The static IPAM plugin's configuration, as the reference's `LoadIPAMConfig` reads it:
 * `ipam.addresses` (with gateways), then CNI_ARGS `IP=`/`GATEWAY=` appended, then
 * `args.cni.ips` replacing them all, then the `ips` capability (`runtimeConfig.ips`,
 * CAP-1) replacing those; every address in CIDR notation; at most one address per
 * family below spec 0.3.0. Messages are the reference's; the codes follow SPEC §4.2.
 */
import { foldToSchema } from "@tscni/spec/go";
import * as v from "valibot";
import { parseCniArgs } from "@tscni/skel";
import { CniError, versionAtLeast, type DNS, type Route } from "@tscni/spec";
import { contains, formatCIDR, formatIP, parseCIDR, parseIP, type IP, type IPNet } from "@tscni/spec/ipnet";
import { goInt, goObject, goString, goStrings, invalidConfig } from "../shared/netconf.ts";

/** One address of the result, with its gateway when one is known. */
export interface StaticAddress {
  address: IPNet;
  gateway: IP | undefined;
}

/** static's config after every source is merged and validated. */
export interface StaticConfig {
  cniVersion: string;
  addresses: StaticAddress[];
  routes: Route[];
  dns: DNS;
}

const addressSchema = goObject({ address: goString, gateway: v.nullish(v.string("net.IP")) }, "main.Address");
const routeSchema = goObject(
  {
    dst: v.nullish(v.string("string")),
    gw: v.nullish(v.string("net.IP")),
    mtu: goInt,
    advmss: goInt,
    priority: goInt,
    table: goInt,
    scope: goInt,
  },
  "types.Route",
);
const dnsSchema = goObject(
  { nameservers: goStrings, domain: goString, search: goStrings, options: goStrings },
  "types.DNS",
);
const Schema = v.looseObject({
  cniVersion: goString,
  name: goString,
  ipam: v.nullish(
    goObject(
      {
        routes: v.nullish(v.array(v.nullable(routeSchema), "[]*types.Route")),
        addresses: v.nullish(v.array(addressSchema, "[]main.Address")),
        dns: v.nullish(dnsSchema),
      },
      "main.IPAMConfig",
    ),
  ),
  runtimeConfig: v.nullish(goObject({ ips: goStrings }, 'struct { IPs []string "json:\\"ips,omitempty\\"" }')),
  args: v.nullish(goObject({ cni: v.nullish(goObject({ ips: goStrings }, "main.IPAMArgs")) }, "")),
});

function jsonKind(x: unknown): string {
  if (typeof x === "string") return "string";
  if (typeof x === "number") return "number";
  if (typeof x === "boolean") return "bool";
  return Array.isArray(x) ? "array" : "object";
}

/** The Go struct holding the field at `keys`: Go names the innermost one ("" for an anonymous struct). */
function goStruct(keys: readonly string[]): string {
  const parent = keys.slice(0, -1).join(".");
  const names: Record<string, string> = {
    "": "Net",
    ipam: "IPAMConfig",
    "ipam.addresses": "Address",
    "ipam.dns": "DNS",
    "args.cni": "IPAMArgs",
  };
  return names[parent] ?? "";
}

/** Go's unmarshal message for the first issue: `json: cannot unmarshal number into Go struct field Address.ipam.addresses.address of type string`. */
function unmarshalError(issue: v.BaseIssue<unknown>): CniError {
  let keys = (issue.path ?? []).map((p) => p.key).filter((k): k is string => typeof k === "string");
  let type = issue.message;
  // A route decodes through types.Route's own UnmarshalJSON: Go reports its field as the list's.
  if (keys[0] === "ipam" && keys[1] === "routes" && keys.length > 2) {
    keys = ["ipam", "routes"];
    if (type === "types.Route") type = "types.route";
  }
  const field = keys.length === 0 ? "" : ` into Go struct field ${goStruct(keys)}.${keys.join(".")}`;
  // v1.1.1 (Debian) differs: code 999 (plain errors); SPEC §4.2 gives code 7 (invalid network config)
  return invalidConfig(`json: cannot unmarshal ${jsonKind(issue.input)}${field} of type ${type}`);
}

/** Go's `net.IP` text unmarshalling: "" is no address. */
function goIP(text: string | null | undefined): IP | undefined {
  if (text === undefined || text === null || text === "") return undefined;
  const ip = parseIP(text);
  if (ip === undefined) throw invalidConfig(`invalid IP address: ${text}`);
  return ip;
}

function routeOf(r: v.InferOutput<typeof routeSchema> | null): Route {
  // types.IPNet: the destination must be a CIDR; host bits are kept.
  const dst = parseCIDR(r?.dst ?? "");
  if (dst === undefined) throw invalidConfig(`invalid CIDR address: ${r?.dst ?? ""}`);
  const gw = goIP(r?.gw);
  const out: Route = { dst: formatCIDR(dst) };
  if (gw !== undefined) out.gw = formatIP(gw);
  if ((r?.mtu ?? 0) !== 0) out.mtu = r?.mtu ?? 0;
  if ((r?.advmss ?? 0) !== 0) out.advmss = r?.advmss ?? 0;
  if ((r?.priority ?? 0) !== 0) out.priority = r?.priority ?? 0;
  if (r?.table !== undefined && r.table !== null) out.table = r.table;
  if (r?.scope !== undefined && r.scope !== null) out.scope = r.scope;
  return out;
}

function dnsOf(d: v.InferOutput<typeof dnsSchema> | null | undefined): DNS {
  const out: DNS = {};
  if (d?.nameservers) out.nameservers = d.nameservers;
  if (d?.domain) out.domain = d.domain;
  if (d?.search) out.search = d.search;
  if (d?.options) out.options = d.options;
  return out;
}

/** CNI_ARGS `IP=` (comma-separated CIDRs) appended, then `GATEWAY=` set on every address containing it. */
function fromEnv(cniArgs: string, addresses: StaticAddress[]): void {
  const env = parseCniArgs(cniArgs, ["IP", "GATEWAY"]);
  if ((env.IP ?? "") !== "") {
    for (const item of (env.IP ?? "").split(",")) {
      const text = item.trim();
      const address = parseCIDR(text);
      if (address === undefined)
        throw invalidConfig(`the 'ip' field is expected to be in CIDR notation, got: '${text}'`);
      addresses.push({ address, gateway: undefined });
    }
  }
  if ((env.GATEWAY ?? "") === "") return;
  for (const item of (env.GATEWAY ?? "").split(",")) {
    const gw = parseIP(item.trim());
    if (gw === undefined) throw invalidConfig(`invalid gateway address: ${item}`);
    for (const a of addresses) if (contains(a.address, gw)) a.gateway = gw;
  }
}

/** `args.cni.ips` or `runtimeConfig.ips`: CIDRs without gateways. */
function fromList(ips: readonly string[]): StaticAddress[] {
  return ips.map((text) => {
    const address = parseCIDR(text);
    if (address === undefined)
      throw invalidConfig(`an entry in the 'ips' field is NOT in CIDR notation, got: '${text}'`);
    return { address, gateway: undefined };
  });
}

/** Loads and validates static's config with `cniArgs` (CNI_ARGS), in the reference's order. */
export function loadStaticConfig(config: unknown, cniArgs: string): StaticConfig {
  // Keys in another letter case are the same fields to Go's decoder.
  const parsed = v.safeParse(Schema, foldToSchema(config, Schema), { abortEarly: true });
  if (!parsed.success) throw unmarshalError(parsed.issues[0]);
  const c = parsed.output;
  const ipam = c.ipam;
  if (ipam === undefined || ipam === null) throw invalidConfig("IPAM config missing 'ipam' key");
  // Gateways are parsed while the JSON is decoded, before any CIDR is.
  const given = (ipam.addresses ?? []).map((a) => ({ text: a.address ?? "", gateway: goIP(a.gateway) }));
  const routes = (ipam.routes ?? []).map(routeOf);
  const env: StaticAddress[] = [];
  fromEnv(cniArgs, env);
  let addresses: (StaticAddress | { text: string; gateway: IP | undefined })[] = [...given, ...env];
  const argsIps = c.args?.cni?.ips ?? [];
  if (argsIps.length > 0) addresses = fromList(argsIps);
  const runtimeIps = c.runtimeConfig?.ips ?? [];
  if (runtimeIps.length > 0) addresses = fromList(runtimeIps);
  const out = addresses.map((a) => {
    if ("address" in a) return a;
    const address = parseCIDR(a.text);
    if (address === undefined)
      throw invalidConfig(`the 'address' field is expected to be in CIDR notation, got: '${a.text}'`);
    return { address, gateway: a.gateway };
  });
  const cniVersion = c.cniVersion ?? "";
  const count = (f: 4 | 6) => out.filter((a) => a.address.ip.family === f).length;
  if ((count(4) > 1 || count(6) > 1) && !versionAtLeast(cniVersion, "0.3.0")) {
    // Code 7 as host-local's same check (packages/ipam/src/config.ts).
    throw invalidConfig(`CNI version ${cniVersion} does not support more than 1 address per family`);
  }
  return { cniVersion, addresses: out, routes, dns: dnsOf(ipam.dns) };
}
