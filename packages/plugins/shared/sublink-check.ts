/**
 * The CHECK (CHK-3) of the reference's macvlan and ipvlan plugins, one check told apart
 * by a table: the container interface of the previous result is a link of the kind, in
 * the configured mode, with the recorded MAC, and the result's IPs and routes are there.
 * The two references word their messages alike but for the case of the first letter and
 * the mode's name; each table keeps its plugin's messages byte for byte (the conformance
 * and compat tests compare them). Pure over a read of the kernel.
 */
import type { AddrInfo, LinkInfo, RouteInfo } from "@tscni/kernel";
import type { Result100 } from "@tscni/spec";
import { checkInterfaceIps, checkRoutes } from "./check.ts";
import { containerIface } from "./sublink.ts";

/** What a sublink CHECK compares the previous result with. */
export interface SublinkCheckView {
  link: LinkInfo | undefined;
  addrs: AddrInfo[];
  routes: RouteInfo[];
}

/** One plugin's kind, mode reading and messages. */
export interface ModeSublinkCheck {
  kind: "macvlan" | "ipvlan";
  /** The configured mode as the kernel reports it. */
  wantMode(mode: string): string;
  /** The mode the kernel reports for the link. */
  haveMode(link: LinkInfo): string | undefined;
  nameMissing(name: string): string;
  notFound(name: string): string;
  notOfKind(name: string): string;
  modeMismatch(have: string, want: string): string;
  macMismatch(name: string, want: string, have: string): string;
}

/** The first problem, or undefined when the attachment is as the result says. */
export function checkModeSublink(
  t: ModeSublinkCheck,
  mode: string,
  ifName: string,
  netns: string,
  prev: Result100,
  view: SublinkCheckView,
): string | undefined {
  const cont = containerIface(prev, ifName, netns);
  if (cont.name === "") return t.nameMissing(cont.name);
  const link = view.link;
  if (link === undefined) return t.notFound(cont.name);
  if (link.kind !== t.kind) return t.notOfKind(link.name);
  const want = t.wantMode(mode);
  const have = t.haveMode(link);
  if (have !== want) return t.modeMismatch(have ?? "unknown", want);
  if (cont.mac !== "" && cont.mac !== link.mac) return t.macMismatch(cont.name, cont.mac, link.mac);
  return (
    checkInterfaceIps(ifName, prev.ips ?? [], view.addrs, view.routes) ?? checkRoutes(prev.routes ?? [], view.routes)
  );
}
