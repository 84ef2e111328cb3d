/**
 * Between our CNI result (JSON shape) and the gob form of the reference's current.Result:
 * addresses as net.IPNet (IP text + mask bytes), routes with their 1.1.0 fields.
 */
import type { Result100, Route } from "@tscni/spec";
import { formatIP, ipFromBytes, ipToBytes, parseIP } from "@tscni/spec/ipnet";

interface GoIPNet {
  IP?: Uint8Array;
  Mask?: Uint8Array;
}

/** An address as Go's net.IP bytes: 4 for IPv4 (as the reference's leases), 16 for IPv6. */
function ipBytes(text: string | undefined): Uint8Array | undefined {
  if (text === undefined) return undefined;
  const ip = parseIP(text);
  if (ip === undefined) throw new Error(`invalid IP address "${text}"`);
  return ip.family === 4 ? ipToBytes(ip).slice(12) : ipToBytes(ip);
}

/** Go's net.IP bytes as text; empty for a nil IP. */
function ipText(b: unknown): string {
  if (!(b instanceof Uint8Array) || b.length === 0) return "";
  if (b.length === 4) return `${b[0]}.${b[1]}.${b[2]}.${b[3]}`;
  return formatIP(ipFromBytes(b));
}

function toIPNet(cidr: string): GoIPNet {
  const [ip, len] = cidr.split("/");
  const bits = Number(len);
  const v6 = (ip ?? "").includes(":");
  const mask = new Uint8Array(v6 ? 16 : 4);
  for (let i = 0; i < bits; i++) mask[i >> 3] = (mask[i >> 3] as number) | (0x80 >> (i & 7));
  return { IP: ipBytes(ip), Mask: mask };
}

function fromIPNet(n: GoIPNet | undefined): string {
  const mask = n?.Mask ?? new Uint8Array();
  let bits = 0;
  for (const b of mask) for (let i = 7; i >= 0; i--) bits += (b >> i) & 1;
  return `${ipText(n?.IP)}/${bits}`;
}

/**
 * Our result as the gob value of current.Result. CNIVersion is left out, as the
 * reference's daemon does: gob leaves an absent field alone, so the calling plugin keeps
 * the version it set before the call (an older plugin could not convert from ours).
 */
export function toGoResult(r: Result100): Record<string, unknown> {
  return {
    IPs: (r.ips ?? []).map((ip) => ({
      Interface: ip.interface,
      Address: toIPNet(ip.address),
      Gateway: ipBytes(ip.gateway),
    })),
    Routes: (r.routes ?? []).map((rt) => ({
      Dst: toIPNet(rt.dst),
      GW: ipBytes(rt.gw),
      MTU: rt.mtu,
      AdvMSS: rt.advmss,
      Priority: rt.priority,
      Table: rt.table,
      Scope: rt.scope,
    })),
    DNS: { Nameservers: r.dns?.nameservers, Domain: r.dns?.domain, Search: r.dns?.search, Options: r.dns?.options },
  };
}

/** A decoded current.Result as our result (1.1.0 shape; fields the reference leaves empty are left out). */
export function fromGoResult(g: Record<string, unknown>): Result100 {
  const ips = ((g.IPs as Record<string, unknown>[] | undefined) ?? []).map((ip) => ({
    ...(typeof ip.Interface === "number" ? { interface: ip.Interface } : {}),
    address: fromIPNet(ip.Address as GoIPNet),
    ...(ipText(ip.Gateway) !== "" ? { gateway: ipText(ip.Gateway) } : {}),
  }));
  const routes = ((g.Routes as Record<string, unknown>[] | undefined) ?? []).map((rt) => {
    const out: Route = { dst: fromIPNet(rt.Dst as GoIPNet) };
    if (ipText(rt.GW) !== "") out.gw = ipText(rt.GW);
    if (typeof rt.MTU === "number") out.mtu = rt.MTU;
    if (typeof rt.AdvMSS === "number") out.advmss = rt.AdvMSS;
    if (typeof rt.Priority === "number") out.priority = rt.Priority;
    if (typeof rt.Table === "number") out.table = rt.Table;
    if (typeof rt.Scope === "number") out.scope = rt.Scope;
    return out;
  });
  const d = (g.DNS ?? {}) as Record<string, unknown>;
  const dns = {
    ...(Array.isArray(d.Nameservers) ? { nameservers: d.Nameservers as string[] } : {}),
    ...(typeof d.Domain === "string" ? { domain: d.Domain } : {}),
    ...(Array.isArray(d.Search) ? { search: d.Search as string[] } : {}),
    ...(Array.isArray(d.Options) ? { options: d.Options as string[] } : {}),
  };
  return { cniVersion: "1.1.0", ips, routes, ...(Object.keys(dns).length > 0 ? { dns } : {}) };
}
