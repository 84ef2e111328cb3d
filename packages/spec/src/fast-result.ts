/**
 * A hand-written decoder of 1.x results (§3.4) for the plugin's cold path: every ADD
 * converts three to four results of its own making (IPAM's, the checked one, the printed
 * one), and a first valibot parse of `Result100Schema` runs a lot of code once
 * (docs/PERFORMANCE.md "What changed"). It takes only what it can decode exactly as the
 * schema would (same output, same key order) and answers `undefined` for anything else:
 * an invalid value, a key in another letter case (Go's key folding), a number Go cannot
 * read as an int. The caller then runs the schema, whose messages stay the only ones
 * (`fast-result.prop.test.ts` holds the two to the same output on every input).
 */
import { goFoldName, isJsonObject } from "./_gojson.ts";
import { canonicalCIDR, canonicalIP } from "./ip.ts";
import type { DNS, IPConfig100, Interface100, Result100, Route } from "./types.ts";

/** Thrown inside the decoder for anything it leaves to the schema; never escapes. */
const DEFER = Symbol("defer");

type Obj = Record<string, unknown>;

/**
 * The fields of one Go struct, taken as `foldToShape` takes them (own enumerable keys):
 * a key that is not a field but folds onto one (Go's case-insensitive match) is the
 * schema's case; other keys are ignored, as Go ignores them.
 */
function fields(o: unknown, names: ReadonlySet<string>): Obj {
  if (!isJsonObject(o)) throw DEFER;
  const out: Obj = {};
  for (const key of Object.keys(o)) {
    if (names.has(key)) out[key] = o[key];
    else if (FOLDABLE.has(goFoldName(key))) throw DEFER;
  }
  return out;
}

const set = (...names: string[]): ReadonlySet<string> => new Set(names);
const RESULT = set("cniVersion", "interfaces", "ips", "routes", "dns");
const IFACE = set("name", "mac", "mtu", "sandbox", "socketPath", "pciID");
const IPCONF = set("interface", "address", "gateway");
const ROUTE = set("dst", "gw", "mtu", "advmss", "priority", "table", "scope");
const DNSF = set("nameservers", "domain", "search", "options");
/** Every field name of the five structs, folded: a key folding onto one of them is deferred. */
const FOLDABLE = new Set([...RESULT, ...IFACE, ...IPCONF, ...ROUTE, ...DNSF].map(goFoldName));

/** A Go `string` field: absent, undefined and null are "". */
function str(x: unknown): string {
  if (x === undefined || x === null) return "";
  if (typeof x !== "string") throw DEFER;
  return x.toWellFormed();
}

/** An optional Go int: absent and null unset; an integer JSON number up to 2^63. */
function int(x: unknown): number | undefined {
  if (x === undefined || x === null) return undefined;
  if (typeof x !== "number" || !Number.isInteger(x) || Math.abs(x) > 2 ** 63) throw DEFER;
  return x;
}

/** A `types.IPNet`: a required CIDR, printed canonically. */
function cidr(x: unknown): string {
  if (typeof x !== "string") throw DEFER;
  const c = canonicalCIDR(x);
  if (c === undefined) throw DEFER;
  return c;
}

/** A `net.IP` field: absent, null and "" unset; else a valid IP, printed canonically. */
function ip(x: unknown): string | undefined {
  if (x === undefined || x === null || x === "") return undefined;
  if (typeof x !== "string") throw DEFER;
  const c = canonicalIP(x);
  if (c === undefined) throw DEFER;
  return c;
}

/** An element of a Go `[]string`: null is "", anything but a string the schema's case. */
function elem(x: unknown): string {
  if (x === null) return "";
  if (typeof x !== "string") throw DEFER;
  return x.toWellFormed();
}

/** A Go `[]*T` or `[]string`: absent and null unset; else an array. */
function list<T>(x: unknown, item: (e: unknown) => T): T[] | undefined {
  if (x === undefined || x === null) return undefined;
  if (!Array.isArray(x)) throw DEFER;
  return x.map(item);
}

const full = <T>(l: T[] | undefined): l is T[] => l !== undefined && l.length > 0;

function route(x: unknown): Route {
  const o = fields(x, ROUTE);
  // `dst` is required: absent is the schema's "missing" message.
  if (!Object.hasOwn(o, "dst")) throw DEFER;
  const dst = cidr(o.dst);
  const gw = ip(o.gw);
  const [mtu, advmss, priority, table, scope] = [
    int(o.mtu),
    int(o.advmss),
    int(o.priority),
    int(o.table),
    int(o.scope),
  ];
  return {
    dst,
    ...(gw !== undefined ? { gw } : {}),
    ...(mtu ? { mtu } : {}),
    ...(advmss ? { advmss } : {}),
    ...(priority ? { priority } : {}),
    ...(table !== undefined ? { table } : {}),
    ...(scope !== undefined ? { scope } : {}),
  };
}

function iface(x: unknown): Interface100 {
  const o = fields(x, IFACE);
  const [name, mac, mtu, sandbox, socketPath, pciID] = [
    str(o.name),
    str(o.mac),
    int(o.mtu),
    str(o.sandbox),
    str(o.socketPath),
    str(o.pciID),
  ];
  return {
    name,
    ...(mac !== "" ? { mac } : {}),
    ...(mtu ? { mtu } : {}),
    ...(sandbox !== "" ? { sandbox } : {}),
    ...(socketPath !== "" ? { socketPath } : {}),
    ...(pciID !== "" ? { pciID } : {}),
  };
}

function ipConfig(x: unknown): IPConfig100 {
  const o = fields(x, IPCONF);
  const index = int(o.interface);
  // `address` is required: absent is the schema's "missing" message.
  if (!Object.hasOwn(o, "address")) throw DEFER;
  const address = cidr(o.address);
  const gateway = ip(o.gateway);
  return {
    ...(index !== undefined ? { interface: index } : {}),
    address,
    ...(gateway !== undefined ? { gateway } : {}),
  };
}

function dns(x: unknown): DNS | undefined {
  if (x === undefined || x === null) return undefined;
  const o = fields(x, DNSF);
  const [nameservers, domain, search, options] = [
    list(o.nameservers, elem),
    str(o.domain),
    list(o.search, elem),
    list(o.options, elem),
  ];
  return {
    ...(full(nameservers) ? { nameservers } : {}),
    ...(domain !== "" ? { domain } : {}),
    ...(full(search) ? { search } : {}),
    ...(full(options) ? { options } : {}),
  };
}

/**
 * `Result100Schema`'s output for a 1.x result it can decode exactly, else undefined (the
 * caller parses with the schema, for its output or its message). Routes need `dst`, IPs
 * `address`, as the schema requires them.
 *
 * @example decodeResult100({ cniVersion: "1.0.0", ips: [{ address: "10.0.0.2/24" }] })?.ips
 */
export function decodeResult100(raw: unknown): Result100 | undefined {
  try {
    const o = fields(raw, RESULT);
    const cniVersion = str(o.cniVersion);
    const interfaces = list(o.interfaces, iface);
    const ips = list(o.ips, ipConfig);
    const routes = list(o.routes, route);
    const d = dns(o.dns);
    return {
      cniVersion,
      ...(full(interfaces) ? { interfaces } : {}),
      ...(full(ips) ? { ips } : {}),
      ...(full(routes) ? { routes } : {}),
      ...(d && Object.keys(d).length > 0 ? { dns: d } : {}),
    };
  } catch (err) {
    if (err === DEFER) return undefined;
    throw err;
  }
}
