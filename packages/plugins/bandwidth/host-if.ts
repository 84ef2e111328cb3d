/**
 * The host end of the container's veth, found as the reference's getHostInterface finds
 * it: the container interface's veth peer index, the host link with that index, and the
 * previous result's host-side interface (no sandbox) of that name; with its messages.
 */
import { HOST, type Kernel, type LinkInfo } from "@tscni/kernel";
import type { Result100 } from "@tscni/spec";

/** The reference's error when the netns cannot be opened (ns.GetNS; its %q of a nil NetNS included). */
export function netnsOpenError(netns: string): Error {
  return new Error(`failed to open netns %!q(<nil>): failed to Statfs "${netns}": no such file or directory`);
}

/** The veth peer index of `ifName` in `netns`, or the reference's reason there is none. */
async function peerIndex(kernel: Kernel, netns: string, ifName: string): Promise<number> {
  const link = await kernel.link(netns, ifName);
  const why =
    link === undefined
      ? `could not look up "${ifName}": Link not found`
      : link.kind !== "veth"
        ? `interface "${ifName}" was not a veth interface`
        : undefined;
  if (why !== undefined || link?.peerIndex === undefined || link.peerIndex <= 0)
    throw new Error(`container interface ${ifName} has no veth peer: ${why ?? "<nil>"}`);
  return link.peerIndex;
}

/** The host link of the container's veth, named in the previous result; throws the reference's messages. */
export async function hostInterface(kernel: Kernel, prev: Result100, netns: string, ifName: string): Promise<LinkInfo> {
  const interfaces = prev.interfaces ?? [];
  if (interfaces.length === 0) throw new Error("no interfaces provided");
  const index = await peerIndex(kernel, netns, ifName);
  const link = (await kernel.links(HOST)).find((l) => l.index === index);
  if (link === undefined) throw new Error(`veth peer with index ${index} is not in host ns`);
  if (!interfaces.some((i) => (i.sandbox ?? "") === "" && i.name === link.name))
    throw new Error("no veth peer of container interface found in host ns");
  return link;
}
