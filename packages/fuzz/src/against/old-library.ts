/**
 * Results reduced to what an implementation older than spec 1.1.0 can hold (Debian's
 * libcni v1.1): routes carry only `dst` and `gw`, interfaces no `mtu`, `socketPath` or
 * `pciID` (§3.4: all added with 1.1.0). The old library drops the others when parsing,
 * which is its version, not a conversion rule, so a run restricted to older versions
 * does not generate them.
 */

type Json = Record<string, unknown>;

function route(r: unknown): unknown {
  if (r === null || typeof r !== "object" || Array.isArray(r)) return r;
  const { dst, gw } = r as Json;
  return { dst, ...(gw !== undefined ? { gw } : {}) };
}

/** `result` without the fields spec 1.1.0 added (a copy; the input is left alone). */
export function withoutNewerFields(result: Json): Json {
  const out: Json = { ...result };
  if (Array.isArray(out.routes)) out.routes = out.routes.map(route);
  for (const key of ["ip4", "ip6"]) {
    const config = out[key] as Json | undefined;
    if (typeof config === "object" && config !== null && Array.isArray(config.routes))
      out[key] = { ...config, routes: config.routes.map(route) };
  }
  if (Array.isArray(out.interfaces)) {
    out.interfaces = out.interfaces.map((i: unknown) => {
      if (i === null || typeof i !== "object" || Array.isArray(i)) return i;
      const { mtu: _m, socketPath: _s, pciID: _p, ...rest } = i as Json;
      return rest;
    });
  }
  return out;
}
