/**
 * fast-check arbitraries of VALID, canonical results of each format (what `parseResult`
 * returns), for property tests here and in other packages (`@tscni/spec/arbitraries`).
 * Nothing on the plugin path imports this file; `cni fuzz` (@tscni/fuzz) builds on it.
 */
import fc from "fast-check";
import { formatCIDR, formatIP, isIPv4 } from "./ip.ts";
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
} from "./types.ts";

const opt = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined });

/** A non-empty well-formed string, mostly ASCII, sometimes any Unicode. */
export const text = fc.oneof(
  { arbitrary: fc.string({ minLength: 1, maxLength: 12 }), weight: 4 },
  { arbitrary: fc.string({ minLength: 1, maxLength: 6, unit: "grapheme" }), weight: 1 },
);

/** Bytes of an IPv4 address (IPv4-mapped form). */
export const ipv4Bytes = fc
  .tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255))
  .map((b) => Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...b]));

/** Bytes of an IPv6 address (not IPv4-mapped), with runs of zero groups to compress. */
export const ipv6Bytes = fc
  .array(fc.oneof({ arbitrary: fc.constant(0), weight: 2 }, { arbitrary: fc.nat(0xffff), weight: 3 }), {
    minLength: 8,
    maxLength: 8,
  })
  .map((groups) => Uint8Array.from(groups.flatMap((g) => [g >> 8, g & 0xff])))
  .filter((ip) => !isIPv4(ip));

/** A canonical IPv4 address text. */
export const ipv4 = ipv4Bytes.map(formatIP);
/** A canonical IPv6 address text (never an IPv4-mapped one). */
export const ipv6 = ipv6Bytes.map(formatIP);
/** A canonical address text of either family. */
export const anyIP = fc.oneof(ipv4, ipv6);

/** A canonical IPv4 CIDR text (host bits kept). */
export const cidr4 = fc.tuple(ipv4Bytes, fc.nat(32)).map(([ip, prefix]) => formatCIDR({ ip, prefix, bits: 32 }));
/** A canonical IPv6 CIDR text (host bits kept). */
export const cidr6 = fc.tuple(ipv6Bytes, fc.nat(128)).map(([ip, prefix]) => formatCIDR({ ip, prefix, bits: 128 }));
/** A canonical CIDR text of either family. */
export const anyCIDR = fc.oneof(cidr4, cidr6);

const nonZeroInt = fc.integer().filter((n) => n !== 0);

/** A route; `full` adds the 1.1 fields (mtu, advmss, priority, table, scope). */
export function route(dst: fc.Arbitrary<string> = anyCIDR, full = true): fc.Arbitrary<Route> {
  return fc
    .record({
      dst,
      gw: opt(anyIP),
      mtu: full ? opt(nonZeroInt) : fc.constant(undefined),
      advmss: full ? opt(nonZeroInt) : fc.constant(undefined),
      priority: full ? opt(nonZeroInt) : fc.constant(undefined),
      table: full ? opt(fc.integer()) : fc.constant(undefined),
      scope: full ? opt(fc.constantFrom(0, 253, 254, 200)) : fc.constant(undefined),
    })
    .map(_defined);
}

/** A canonical DNS object (empty lists and domain left out). */
export const dns: fc.Arbitrary<DNS> = fc
  .record({
    nameservers: opt(fc.array(text, { minLength: 1, maxLength: 3 })),
    domain: opt(text),
    search: opt(fc.array(text, { minLength: 1, maxLength: 3 })),
    options: opt(fc.array(text, { minLength: 1, maxLength: 3 })),
  })
  .map(_defined);

function _defined<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

const list = <T>(arb: fc.Arbitrary<T>, max = 4): fc.Arbitrary<T[] | undefined> =>
  fc.array(arb, { maxLength: max }).map((l) => (l.length > 0 ? l : undefined));

/**
 * A 0.1.0/0.2.0 result. With `expressible`, it only holds what the format itself can say
 * (R02-1): at least one IP config, routes of the config's own family with dst and gw only.
 */
export function result020(expressible = false): fc.Arbitrary<Result020> {
  const config = (cidr: fc.Arbitrary<string>): fc.Arbitrary<IPConfig020> =>
    fc
      .record({ ip: cidr, gateway: opt(anyIP), routes: list(expressible ? route(cidr, false) : route()) })
      .map(_defined);
  return fc
    .record({
      cniVersion: fc.constantFrom("0.1.0", "0.2.0"),
      ip4: opt(config(expressible ? cidr4 : anyCIDR)),
      ip6: opt(config(expressible ? cidr6 : anyCIDR)),
      dns,
    })
    .map(_defined)
    .filter((r) => !expressible || r.ip4 !== undefined || r.ip6 !== undefined);
}

const interface040: fc.Arbitrary<Interface040> = fc
  .record({ name: fc.oneof(text, fc.constant("")), mac: opt(text), sandbox: opt(text) })
  .map(_defined);

/**
 * A 0.3.0/0.3.1/0.4.0 result. With `consistent`, every `ips[].version` matches its
 * address family (what a 1.x round trip recomputes); otherwise it may be any string.
 */
export function result040(consistent = false): fc.Arbitrary<Result040> {
  const ip: fc.Arbitrary<IPConfig040> = fc
    .record({
      address: anyCIDR,
      gateway: opt(anyIP),
      interface: opt(fc.integer({ min: -2, max: 8 })),
      version: consistent ? fc.constant("") : fc.oneof(fc.constantFrom("4", "6", ""), fc.string({ maxLength: 3 })),
    })
    .map((c) => _defined({ ...c, version: consistent ? (c.address.includes(":") ? "6" : "4") : c.version }));
  return fc
    .record({
      cniVersion: fc.constantFrom("0.3.0", "0.3.1", "0.4.0"),
      interfaces: list(interface040),
      ips: list(ip),
      routes: list(route()),
      dns,
    })
    .map(_defined);
}

const interface100: fc.Arbitrary<Interface100> = fc
  .record({
    name: fc.oneof(text, fc.constant("")),
    mac: opt(text),
    mtu: opt(nonZeroInt),
    sandbox: opt(text),
    socketPath: opt(text),
    pciID: opt(text),
  })
  .map(_defined);

/** A 1.0.0/1.1.0 result (`dns` left out when empty, §3.4). */
export function result100(): fc.Arbitrary<Result100> {
  const ip: fc.Arbitrary<IPConfig100> = fc
    .record({ address: anyCIDR, gateway: opt(anyIP), interface: opt(fc.integer({ min: -2, max: 8 })) })
    .map(_defined);
  return fc
    .record({
      cniVersion: fc.constantFrom("1.0.0", "1.1.0"),
      interfaces: list(interface100),
      ips: list(ip),
      routes: list(route()),
      dns: dns.map((d) => (Object.keys(d).length > 0 ? d : undefined)),
    })
    .map(_defined);
}

/** A valid result of any version. */
export const anyResult: fc.Arbitrary<Result020 | Result040 | Result100> = fc.oneof(
  result020(),
  result040(),
  result100(),
);
