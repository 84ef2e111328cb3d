/**
 * Writing results (and other wire objects) exactly as the Go library prints them:
 * `json.MarshalIndent(r, "", "    ")` with no trailing newline, the fields each
 * version omits when empty (R02-2, R04-4, §3.4), struct field order for 0.x and sorted
 * keys for 1.x (its marshaller round-trips through a map).
 */
import { CniError, ErrorCode } from "./error.ts";
import { resultFamily } from "./family.ts";
import type { DNS, IPConfig020, Result, Result020, Result040, Result100, Route } from "./types.ts";

/** A JSON value as written on the wire. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

type JsonObject = { [key: string]: JsonValue };

/** Adds `key: value` when the value is set (not undefined, not "", not 0, not an empty list). */
function _put(out: JsonObject, key: string, value: JsonValue | undefined): void {
  if (value === undefined || value === "" || value === 0) return;
  if (Array.isArray(value) && value.length === 0) return;
  out[key] = value;
}

function _route(r: Route): JsonObject {
  const out: JsonObject = { dst: r.dst };
  _put(out, "gw", r.gw);
  _put(out, "mtu", r.mtu);
  _put(out, "advmss", r.advmss);
  _put(out, "priority", r.priority);
  // Pointers in Go: written whenever set, even to 0 (§3.4).
  if (r.table !== undefined) out.table = r.table;
  if (r.scope !== undefined) out.scope = r.scope;
  return out;
}

function _dns(d: DNS | undefined): JsonObject {
  const out: JsonObject = {};
  _put(out, "nameservers", d?.nameservers);
  _put(out, "domain", d?.domain);
  _put(out, "search", d?.search);
  _put(out, "options", d?.options);
  return out;
}

function _ip020(c: IPConfig020): JsonObject {
  const out: JsonObject = { ip: c.ip };
  _put(out, "gateway", c.gateway);
  _put(out, "routes", c.routes?.map(_route));
  return out;
}

function _wire020(r: Result020): JsonObject {
  const out: JsonObject = {};
  _put(out, "cniVersion", r.cniVersion);
  if (r.ip4) out.ip4 = _ip020(r.ip4);
  if (r.ip6) out.ip6 = _ip020(r.ip6);
  out.dns = _dns(r.dns); // never omitted (R02-2)
  return out;
}

function _wire040(r: Result040): JsonObject {
  const out: JsonObject = {};
  _put(out, "cniVersion", r.cniVersion);
  _put(
    out,
    "interfaces",
    r.interfaces?.map((i) => {
      const o: JsonObject = { name: i.name };
      _put(o, "mac", i.mac);
      _put(o, "sandbox", i.sandbox);
      return o;
    }),
  );
  _put(
    out,
    "ips",
    r.ips?.map((ip) => {
      const o: JsonObject = { version: ip.version };
      if (ip.interface !== undefined) o.interface = ip.interface; // index 0 is written (R04-2)
      o.address = ip.address;
      _put(o, "gateway", ip.gateway);
      return o;
    }),
  );
  _put(out, "routes", r.routes?.map(_route));
  out.dns = _dns(r.dns); // never omitted (R04-4)
  return out;
}

function _sortKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(_sortKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, _sortKeys(value[k] as JsonValue)]),
  );
}

function _wire100(r: Result100): JsonObject {
  const out: JsonObject = {};
  _put(out, "cniVersion", r.cniVersion);
  _put(
    out,
    "interfaces",
    r.interfaces?.map((i) => {
      const o: JsonObject = { name: i.name };
      _put(o, "mac", i.mac);
      _put(o, "mtu", i.mtu);
      _put(o, "sandbox", i.sandbox);
      _put(o, "socketPath", i.socketPath);
      _put(o, "pciID", i.pciID);
      return o;
    }),
  );
  _put(
    out,
    "ips",
    r.ips?.map((ip) => {
      const o: JsonObject = {};
      if (ip.interface !== undefined) o.interface = ip.interface;
      o.address = ip.address;
      _put(o, "gateway", ip.gateway);
      return o;
    }),
  );
  _put(out, "routes", r.routes?.map(_route));
  const dns = _dns(r.dns);
  if (Object.keys(dns).length > 0) out.dns = dns; // omitted when empty (§3.4)
  return _sortKeys(out) as JsonObject;
}

/**
 * The JSON object Go would print for a result, chosen by its `cniVersion`. Throws a
 * CniError (code 1) for a version no result type has.
 */
export function resultToWire(result: Result): JsonObject {
  switch (resultFamily(result.cniVersion)) {
    case "020":
      return _wire020(result as Result020);
    case "040":
      return _wire040(result as Result040);
    case "100":
      return _wire100(result as Result100);
    default:
      throw new CniError(ErrorCode.IncompatibleCNIVersion, `unsupported CNI result version "${result.cniVersion}"`);
  }
}

/**
 * Go's JSON text for a value: 4-space indent, `<`, `>`, `&`, U+2028 and U+2029 escaped
 * as Go's encoder does, no trailing newline.
 */
export function goJSON(value: unknown): string {
  return JSON.stringify(value, null, 4).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * A result as the Go library prints it (R-3, R02-2, R04-4, §3.4).
 *
 * @example resultToJSON(convertResult(result, "0.2.0"))
 */
export function resultToJSON(result: Result): string {
  return goJSON(resultToWire(result));
}
