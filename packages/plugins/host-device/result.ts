/**
 * host-device's result once IPAM has answered (shared by ADD and its plan): IPAM's
 * addresses on the one interface (index 0), its routes, and the config's DNS in place of
 * IPAM's, as the reference sets it. Pure.
 */
import type { DNS, Result100 } from "@tscni/spec";

/** The result of an ADD whose IPAM returned `r`; the reference's error when it has no address. */
export function resultWithIpam(r: Result100, interfaces: Result100["interfaces"], dns: DNS | undefined): Result100 {
  if ((r.ips ?? []).length === 0) throw new Error("IPAM plugin returned missing IP config");
  const out: Result100 = {
    ...r,
    cniVersion: "1.1.0",
    interfaces,
    ips: (r.ips ?? []).map((ip) => ({ ...ip, interface: 0 })),
  };
  delete out.dns;
  if (dns !== undefined) out.dns = dns;
  return out;
}
