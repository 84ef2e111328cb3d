/**
 * DEL removes only what is ours (DEL-1: "removes CNI_IFNAME or undoes what its ADD did";
 * issue 16 item 5). After an ADD refused because CNI_IFNAME already existed (ADD-4), the
 * runtime still sends DEL (LC-3); the reference then deletes that pre-existing interface.
 * We delete the container interface only when it is a veth whose peer, in our (the
 * host's) namespace, is what our ADD made: for bridge a port of the configured bridge, for
 * ptp the host end the cached result names (or, without one, a veth named as we name
 * them). A foreign interface is left alone, with a warning; DEL still releases IPAM.
 */
import { HOST, type Kernel, KernelError, type LinkInfo } from "@tscni/kernel";
import { type CmdArgs, parsePrevResult } from "@tscni/skel";
import { deleteContainerLink } from "./lifecycle.ts";

/** Tells whether a host-side veth is the peer our ADD made. */
export type OwnsPeer = (peer: LinkInfo) => boolean;

/**
 * The host link of index `index`: first among the links named `hints` (the host-side
 * names of the cached result, one GETLINK each), else from a dump of the host's links,
 * which grows with every veth of the host. The same link either way.
 */
async function hostLinkByIndex(kernel: Kernel, index: number, hints: readonly string[]): Promise<LinkInfo | undefined> {
  for (const name of hints) {
    // A cached result may name anything (DEL-4): a name the kernel refuses is only a miss.
    const l = await kernel.link(HOST, name).catch(() => undefined);
    if (l?.index === index) return l;
  }
  return (await kernel.links(HOST)).find((l) => l.index === index);
}

/** The container interface `ifName` when it is a veth whose host-side peer `owns` accepts; undefined otherwise (or when gone). */
async function ownedLink(
  kernel: Kernel,
  netns: string,
  ifName: string,
  owns: OwnsPeer,
  hints: readonly string[],
): Promise<"ours" | "gone" | "foreign"> {
  let link: LinkInfo | undefined;
  try {
    link = await kernel.link(netns, ifName);
  } catch (err) {
    if (err instanceof KernelError && (err.kind === "netns-gone" || err.kind === "not-found")) return "gone";
    throw err;
  }
  if (link === undefined) return "gone";
  if (link.kind !== "veth" || link.peerIndex === undefined) return "foreign";
  const found = await hostLinkByIndex(kernel, link.peerIndex, hints);
  const peer = found?.kind === "veth" ? found : undefined;
  return peer !== undefined && owns(peer) ? "ours" : "foreign";
}

/**
 * DEL's link step: deletes `ifName` in `netns` when it is ours, tolerating a gone namespace
 * or link (DEL-2, DEL-3); a foreign interface of that name stays and `warn` says so. The
 * peer is looked up by the `hostNames` of the cached result first (DEL-4), so a DEL reads
 * one or two host links, not all of them.
 */
export async function deleteOwnContainerLink(
  kernel: Kernel,
  netns: string,
  ifName: string,
  owns: OwnsPeer,
  warn: (msg: string) => void,
  hostNames: readonly string[] = [],
): Promise<void> {
  if (netns === "" || !(await kernel.netnsExists(netns))) return;
  const state = await ownedLink(kernel, netns, ifName, owns, hostNames);
  if (state === "foreign")
    warn(`DEL: left ${ifName} in ${netns} alone: it is not the interface this plugin's ADD made`);
  if (state === "ours") await deleteContainerLink(kernel, netns, ifName);
}

/** bridge: the peer is a port of the configured bridge. */
export function portOf(bridge: string): OwnsPeer {
  return (peer) => peer.master === bridge;
}

/** ptp: the peer is the host interface the cached result names, or without one a veth named as ours (`veth` + 8 hex). */
export function hostEndOf(hostNames: readonly string[]): OwnsPeer {
  return (peer) => (hostNames.length > 0 ? hostNames.includes(peer.name) : /^veth[0-9a-f]{8}$/.test(peer.name));
}

/** The host-side interface names (no sandbox) of the cached result DEL received (DEL-4); none when absent or unreadable. */
export function prevHostNames(config: CmdArgs["config"]): string[] {
  try {
    return (parsePrevResult(config)?.interfaces ?? []).filter((i) => (i.sandbox ?? "") === "").map((i) => i.name);
  } catch {
    return []; // a DEL must not fail on a bad prevResult (DEL-4)
  }
}
