/**
 * The master (lower) device of macvlan, ipvlan and vlan: by default the interface of the
 * first default route, and its MTU bounds the child's (issue 13; the
 * reference's `getDefaultRouteInterfaceName` and `getMTUByName`). With `linkInContainer`
 * both are looked up in the container's namespace instead of the plugin's own.
 */
import { HOST, type Kernel, type LinkInfo } from "@tscni/kernel";

/** Where the master lives: the host, or the container with `linkInContainer`. */
export function masterNs(netns: string, linkInContainer: boolean): string {
  return linkInContainer ? netns : HOST;
}

/**
 * The device of the first main-table default route (IPv4 before IPv6, as a netlink dump
 * lists them), as the reference finds it; its error when there is none.
 */
export async function defaultRouteInterface(kernel: Kernel, ns: string): Promise<string> {
  const routes = await kernel.routes(ns);
  const dflt = routes.find(
    (r) => (r.dst === "0.0.0.0/0" || r.dst === "::/0") && r.table === undefined && r.dev !== undefined,
  );
  if (dflt?.dev === undefined) throw new Error("no default route interface found");
  return dflt.dev;
}

/** The master link, or Go netlink's `Link not found` (the reference returns it bare). */
export async function masterLink(kernel: Kernel, ns: string, name: string): Promise<LinkInfo> {
  const link = await kernel.link(ns, name);
  if (link === undefined) throw new Error("Link not found");
  return link;
}

/** The reference's MTU bound: 0 (the master's) up to the master's own. */
export function checkMtu(mtu: number, masterMtu: number): void {
  // Code 999 as the reference's: the bound is the master's state, not the config's alone.
  if (mtu < 0 || mtu > masterMtu) throw new Error(`invalid MTU ${mtu}, must be [0, master MTU(${masterMtu})]`);
}
