/**
 * The converters between result formats (SPEC.md §3.7), one function per family pair,
 * mirroring `types020`, `types040` and `types100` of the reference library. They take
 * canonical, validated results; `convertResult` picks one from a static table.
 */
import { CniError, ErrorCode } from "./error.ts";
import { ipFamily } from "./ip.ts";
import type { DNS, IPConfig020, IPConfig040, Interface040, Result020, Result040, Result100, Route } from "./types.ts";

/** A route with all its fields (Go's `Route.Copy`). */
function _copyRoute(route: Route): Route {
  return { ...route };
}

/** Go's `DNS.Copy`: empty lists stay out. */
function _copyDNS(dns: DNS | undefined): DNS {
  if (dns === undefined) return {};
  return {
    ...(dns.nameservers?.length ? { nameservers: [...dns.nameservers] } : {}),
    ...(dns.domain ? { domain: dns.domain } : {}),
    ...(dns.search?.length ? { search: [...dns.search] } : {}),
    ...(dns.options?.length ? { options: [...dns.options] } : {}),
  };
}

function _copyIP020(ip: IPConfig020): IPConfig020 {
  return { ...ip, ...(ip.routes ? { routes: ip.routes.map(_copyRoute) } : {}) };
}

/** 0.1.0 <-> 0.2.0: only the label changes; ip4, ip6 and dns are copied. */
export function relabel020(from: Result020, to: string): Result020 {
  return {
    cniVersion: to,
    ...(from.ip4 ? { ip4: _copyIP020(from.ip4) } : {}),
    ...(from.ip6 ? { ip6: _copyIP020(from.ip6) } : {}),
    dns: _copyDNS(from.dns),
  };
}

/**
 * 0.1.0/0.2.0 -> 0.3.x/0.4.0 (types040 `convertFrom02x`): ip4 then ip6 become `ips` with
 * versions "4" and "6" and no interface index; their routes, whole, move to the top level.
 */
export function from020To040(from: Result020, to: string): Result040 {
  const ips: IPConfig040[] = [];
  const routes: Route[] = [];
  for (const [version, config] of [
    ["4", from.ip4],
    ["6", from.ip6],
  ] as const) {
    if (config === undefined) continue;
    ips.push({ version, address: config.ip, ...(config.gateway !== undefined ? { gateway: config.gateway } : {}) });
    routes.push(...(config.routes ?? []).map(_copyRoute));
  }
  return {
    cniVersion: to,
    ...(ips.length > 0 ? { ips } : {}),
    ...(routes.length > 0 ? { routes } : {}),
    dns: _copyDNS(from.dns),
  };
}

/** 0.3.0 <-> 0.3.1 <-> 0.4.0 (types040 `convertInternal`): a deep copy with the new label. */
export function relabel040(from: Result040, to: string): Result040 {
  return {
    cniVersion: to,
    ...(from.interfaces ? { interfaces: from.interfaces.map((i) => ({ ...i })) } : {}),
    ...(from.ips ? { ips: from.ips.map((ip) => ({ ...ip })) } : {}),
    ...(from.routes ? { routes: from.routes.map(_copyRoute) } : {}),
    dns: _copyDNS(from.dns),
  };
}

function _interface040(i: { name: string; mac?: string; sandbox?: string }): Interface040 {
  return {
    name: i.name,
    ...(i.mac !== undefined ? { mac: i.mac } : {}),
    ...(i.sandbox !== undefined ? { sandbox: i.sandbox } : {}),
  };
}

/** 0.3.x/0.4.0 -> 1.x (types100 `convertFrom04x`): ips lose `version`; the rest is copied. */
export function from040To100(from: Result040, to: string): Result100 {
  const dns = _copyDNS(from.dns);
  return {
    cniVersion: to,
    ...(from.interfaces ? { interfaces: from.interfaces.map(_interface040) } : {}),
    ...(from.ips
      ? {
          ips: from.ips.map(({ interface: index, address, gateway }) => ({
            ...(index !== undefined ? { interface: index } : {}),
            address,
            ...(gateway !== undefined ? { gateway } : {}),
          })),
        }
      : {}),
    ...(from.routes ? { routes: from.routes.map(_copyRoute) } : {}),
    ...(Object.keys(dns).length > 0 ? { dns } : {}),
  };
}

/**
 * 1.x -> 0.3.x/0.4.0 (types100 `convertTo04x`): interfaces lose mtu, socketPath and pciID;
 * ips gain `version` from the address family ("4" when Go's `To4()` is non-nil).
 */
export function from100To040(from: Result100, to: string): Result040 {
  return {
    cniVersion: to,
    ...(from.interfaces ? { interfaces: from.interfaces.map(_interface040) } : {}),
    ...(from.ips
      ? {
          ips: from.ips.map(({ interface: index, address, gateway }) => ({
            version: ipFamily(address) === 4 ? "4" : "6",
            ...(index !== undefined ? { interface: index } : {}),
            address,
            ...(gateway !== undefined ? { gateway } : {}),
          })),
        }
      : {}),
    ...(from.routes ? { routes: from.routes.map(_copyRoute) } : {}),
    dns: _copyDNS(from.dns),
  };
}

/** 1.0.0 <-> 1.1.0 (types100 `convertFrom100`): only the label changes; fields are shared. */
export function relabel100(from: Result100, to: string): Result100 {
  return { ...from, cniVersion: to };
}

/**
 * 0.3.x/0.4.0 -> 0.1.0/0.2.0 (types040 `convertTo02x`): the first ip whose `version` is
 * "4" (and "6") becomes ip4 (ip6) with address and gateway only; later ones are dropped.
 * Each route joins the config of its destination's family, keeping dst and gw, or is
 * dropped when that config is missing. With neither config the conversion fails.
 */
export function from040To020(from: Result040, to: string): Result020 {
  let ip4: IPConfig020 | undefined;
  let ip6: IPConfig020 | undefined;
  for (const ip of from.ips ?? []) {
    const config = { ip: ip.address, ...(ip.gateway !== undefined ? { gateway: ip.gateway } : {}) };
    if (ip.version === "4" && ip4 === undefined) ip4 = config;
    else if (ip.version === "6" && ip6 === undefined) ip6 = config;
    if (ip4 !== undefined && ip6 !== undefined) break;
  }
  for (const route of from.routes ?? []) {
    const target = ipFamily(route.dst) === 4 ? ip4 : ip6;
    if (target === undefined) continue;
    target.routes = [...(target.routes ?? []), { dst: route.dst, ...(route.gw !== undefined ? { gw: route.gw } : {}) }];
  }
  if (ip4 === undefined && ip6 === undefined) {
    throw new CniError(ErrorCode.IncompatibleCNIVersion, "cannot convert: no valid IP addresses");
  }
  return {
    cniVersion: to,
    ...(ip4 ? { ip4 } : {}),
    ...(ip6 ? { ip6 } : {}),
    dns: _copyDNS(from.dns),
  };
}
