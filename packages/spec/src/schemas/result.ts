/**
 * Valibot schemas of the three result formats (SPEC.md §3.2-§3.5), decoding like the Go
 * reference types (`types020`, `types040`, `types100`): unknown keys are ignored, null
 * leaves a field unset, IPs and CIDRs come out in Go's canonical text, and
 * fields Go omits when empty are left out, so every output is a canonical typed result.
 *
 * The schemas accept any `cniVersion` string; which versions a family accepts (R02-3,
 * R04-5, R1-1) is checked by `parseResult`/`createResult`, which also fold key case first.
 */
import * as v from "valibot";
import { LEAF, type GoShape } from "../_gojson.ts";
import type {
  DNS,
  IPConfig020,
  IPConfig040,
  IPConfig100,
  Interface040,
  Interface100,
  Result020,
  Result040,
  Result100,
  Route,
} from "../types.ts";
import { cidrText, goList, goOptional, goOptionalInt, goStringField, goStringList, goStruct, ipField } from "./_go.ts";

const nonEmpty = <T>(list: readonly T[] | null | undefined): list is T[] =>
  list !== null && list !== undefined && list.length > 0;

/** A route (`types.Route`): dst, gw, and the 1.1 fields; mtu/advmss/priority 0 mean unset. */
export const RouteSchema = v.pipe(
  goStruct(
    {
      dst: cidrText,
      gw: ipField,
      mtu: goOptionalInt,
      advmss: goOptionalInt,
      priority: goOptionalInt,
      table: goOptionalInt,
      scope: goOptionalInt,
    },
    "route",
  ),
  v.transform(
    (r): Route => ({
      dst: r.dst,
      ...(r.gw !== undefined ? { gw: r.gw } : {}),
      ...(r.mtu ? { mtu: r.mtu } : {}),
      ...(r.advmss ? { advmss: r.advmss } : {}),
      ...(r.priority ? { priority: r.priority } : {}),
      // table and scope are pointers in Go: 0 is a value (§3.4).
      ...(r.table !== null && r.table !== undefined ? { table: r.table } : {}),
      ...(r.scope !== null && r.scope !== undefined ? { scope: r.scope } : {}),
    }),
  ),
);

/** The DNS object (`types.DNS`); empty lists and an empty domain are left out. */
export const DNSSchema = v.pipe(
  goStruct({ nameservers: goStringList, domain: goStringField, search: goStringList, options: goStringList }, "DNS"),
  v.transform(
    (d): DNS => ({
      ...(nonEmpty(d.nameservers) ? { nameservers: d.nameservers } : {}),
      ...(d.domain !== "" ? { domain: d.domain } : {}),
      ...(nonEmpty(d.search) ? { search: d.search } : {}),
      ...(nonEmpty(d.options) ? { options: d.options } : {}),
    }),
  ),
);

// Absent or null `dns` is the empty DNS (Go's zero struct).
const dnsField = goOptional(DNSSchema);

/** A 0.1.0/0.2.0 per-family IP configuration (R02-1). Routes carry Go's full route type. */
export const IPConfig020Schema = v.pipe(
  goStruct({ ip: cidrText, gateway: ipField, routes: goList(RouteSchema, "Route") }, "IPConfig"),
  v.transform(
    (c): IPConfig020 => ({
      ip: c.ip,
      ...(c.gateway !== undefined ? { gateway: c.gateway } : {}),
      ...(nonEmpty(c.routes) ? { routes: c.routes } : {}),
    }),
  ),
);

/** A 0.1.0/0.2.0 result (§3.2); `dns` is always present, possibly `{}` (R02-2). */
export const Result020Schema = v.pipe(
  goStruct(
    {
      cniVersion: goStringField,
      ip4: goOptional(IPConfig020Schema),
      ip6: goOptional(IPConfig020Schema),
      dns: dnsField,
    },
    "Result",
  ),
  v.transform(
    (r): Result020 => ({
      cniVersion: r.cniVersion,
      ...(r.ip4 ? { ip4: r.ip4 } : {}),
      ...(r.ip6 ? { ip6: r.ip6 } : {}),
      dns: r.dns ?? {},
    }),
  ),
);

/** An interface of a 0.3.x/0.4.0 result (R04-1): `name` always, `mac`/`sandbox` when set. */
export const Interface040Schema = v.pipe(
  goStruct({ name: goStringField, mac: goStringField, sandbox: goStringField }, "Interface"),
  v.transform(
    (i): Interface040 => ({
      name: i.name,
      ...(i.mac !== "" ? { mac: i.mac } : {}),
      ...(i.sandbox !== "" ? { sandbox: i.sandbox } : {}),
    }),
  ),
);

/**
 * An IP of a 0.3.x/0.4.0 result (R04-2). `version` is kept verbatim, as Go does: it is not
 * checked against the address, may be any string, and is always written.
 */
export const IPConfig040Schema = v.pipe(
  goStruct({ version: goStringField, interface: goOptionalInt, address: cidrText, gateway: ipField }, "IPConfig"),
  v.transform(
    (c): IPConfig040 => ({
      version: c.version,
      ...(c.interface !== null && c.interface !== undefined ? { interface: c.interface } : {}),
      address: c.address,
      ...(c.gateway !== undefined ? { gateway: c.gateway } : {}),
    }),
  ),
);

/** A 0.3.0/0.3.1/0.4.0 result (§3.3); `dns` is always present (R04-4). */
export const Result040Schema = v.pipe(
  goStruct(
    {
      cniVersion: goStringField,
      interfaces: goList(Interface040Schema, "Interface"),
      ips: goList(IPConfig040Schema, "IPConfig"),
      routes: goList(RouteSchema, "Route"),
      dns: dnsField,
    },
    "Result",
  ),
  v.transform(
    (r): Result040 => ({
      cniVersion: r.cniVersion,
      ...(nonEmpty(r.interfaces) ? { interfaces: r.interfaces } : {}),
      ...(nonEmpty(r.ips) ? { ips: r.ips } : {}),
      ...(nonEmpty(r.routes) ? { routes: r.routes } : {}),
      dns: r.dns ?? {},
    }),
  ),
);

/** An interface of a 1.x result (§3.4); every field but `name` is left out when empty or 0. */
export const Interface100Schema = v.pipe(
  goStruct(
    {
      name: goStringField,
      mac: goStringField,
      mtu: goOptionalInt,
      sandbox: goStringField,
      socketPath: goStringField,
      pciID: goStringField,
    },
    "Interface",
  ),
  v.transform(
    (i): Interface100 => ({
      name: i.name,
      ...(i.mac !== "" ? { mac: i.mac } : {}),
      ...(i.mtu ? { mtu: i.mtu } : {}),
      ...(i.sandbox !== "" ? { sandbox: i.sandbox } : {}),
      ...(i.socketPath !== "" ? { socketPath: i.socketPath } : {}),
      ...(i.pciID !== "" ? { pciID: i.pciID } : {}),
    }),
  ),
);

/** An IP of a 1.x result: no `version` (§3.4). */
export const IPConfig100Schema = v.pipe(
  goStruct({ interface: goOptionalInt, address: cidrText, gateway: ipField }, "IPConfig"),
  v.transform(
    (c): IPConfig100 => ({
      ...(c.interface !== null && c.interface !== undefined ? { interface: c.interface } : {}),
      address: c.address,
      ...(c.gateway !== undefined ? { gateway: c.gateway } : {}),
    }),
  ),
);

/** A 1.0.0/1.1.0 result (§3.4); `dns` is left out when empty. */
export const Result100Schema = v.pipe(
  goStruct(
    {
      cniVersion: goStringField,
      interfaces: goList(Interface100Schema, "Interface"),
      ips: goList(IPConfig100Schema, "IPConfig"),
      routes: goList(RouteSchema, "Route"),
      dns: dnsField,
    },
    "Result",
  ),
  v.transform(
    (r): Result100 => ({
      cniVersion: r.cniVersion,
      ...(nonEmpty(r.interfaces) ? { interfaces: r.interfaces } : {}),
      ...(nonEmpty(r.ips) ? { ips: r.ips } : {}),
      ...(nonEmpty(r.routes) ? { routes: r.routes } : {}),
      ...(r.dns && Object.keys(r.dns).length > 0 ? { dns: r.dns } : {}),
    }),
  ),
);

const noInterfaces = <T extends Result040 | Result100>(r: T): boolean =>
  r.interfaces === undefined && (r.ips ?? []).every((ip) => ip.interface === undefined);

const IPAM_MESSAGE = "an IPAM result has no interfaces and no interface indexes";

/** The abbreviated IPAM result at 0.3.x/0.4.0 (RI-1): no `interfaces`, no `ips[].interface`. */
export const IpamResult040Schema = v.pipe(Result040Schema, v.check(noInterfaces<Result040>, IPAM_MESSAGE));

/** The abbreviated IPAM result at 1.x (RI-1): no `interfaces`, no `ips[].interface`. */
export const IpamResult100Schema = v.pipe(Result100Schema, v.check(noInterfaces<Result100>, IPAM_MESSAGE));

const struct = (fields: Record<string, GoShape>): GoShape => ({ kind: "struct", fields });
const list = (of: GoShape): GoShape => ({ kind: "list", of });

const ROUTE_SHAPE = struct({ dst: LEAF, gw: LEAF, mtu: LEAF, advmss: LEAF, priority: LEAF, table: LEAF, scope: LEAF });
const DNS_SHAPE = struct({ nameservers: LEAF, domain: LEAF, search: LEAF, options: LEAF });
const IP020_SHAPE = struct({ ip: LEAF, gateway: LEAF, routes: list(ROUTE_SHAPE) });

/** The Go struct fields of each result family, for case-insensitive key matching. */
export const RESULT_SHAPES = {
  "020": struct({ cniVersion: LEAF, ip4: IP020_SHAPE, ip6: IP020_SHAPE, dns: DNS_SHAPE }),
  "040": struct({
    cniVersion: LEAF,
    interfaces: list(struct({ name: LEAF, mac: LEAF, sandbox: LEAF })),
    ips: list(struct({ version: LEAF, interface: LEAF, address: LEAF, gateway: LEAF })),
    routes: list(ROUTE_SHAPE),
    dns: DNS_SHAPE,
  }),
  "100": struct({
    cniVersion: LEAF,
    interfaces: list(struct({ name: LEAF, mac: LEAF, mtu: LEAF, sandbox: LEAF, socketPath: LEAF, pciID: LEAF })),
    ips: list(struct({ interface: LEAF, address: LEAF, gateway: LEAF })),
    routes: list(ROUTE_SHAPE),
    dns: DNS_SHAPE,
  }),
} as const satisfies Record<string, GoShape>;
