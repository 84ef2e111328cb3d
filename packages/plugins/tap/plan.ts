/**
 * What a tap ADD does to the kernel, as plan steps (upstream main's `createTap`): the tap
 * is made in the container under CNI_IFNAME with the flags the reference's path gives it,
 * MTU and MAC set, enslaved to `bridge` (looked up in the container's namespace, as the
 * reference does inside `netns.Do`), and brought up. Deleting the tap undoes it all. Pure.
 */
import type { LinkInfo, TapAdd } from "@tscni/kernel";
import { keep, type PlanStep } from "../shared/steps.ts";
import type { TapConfig } from "./config.ts";

/**
 * The tap.add of the config. With both owner and group and no SELinux context the
 * reference creates it through netlink's Tuntap (IFF_TAP|IFF_VNET_HDR, plus
 * IFF_MULTI_QUEUE|IFF_NO_PI for multiQueue); otherwise through `ip tuntap add mode tap`
 * (IFF_TAP|IFF_NO_PI, plus IFF_MULTI_QUEUE). We give the device the same flags either way.
 */
export function tapAddOp(conf: TapConfig, netns: string, ifName: string): TapAdd {
  const viaNetlink = conf.owner !== undefined && conf.group !== undefined && conf.selinuxContext === "";
  return {
    op: "tap.add",
    ns: netns,
    name: ifName,
    ...(conf.owner !== undefined ? { owner: conf.owner } : {}),
    ...(conf.group !== undefined ? { group: conf.group } : {}),
    ...(conf.multiQueue ? { multiQueue: true } : {}),
    ...(viaNetlink ? { vnetHdr: true, ...(conf.multiQueue ? {} : { pi: true }) } : {}),
  };
}

/** The container's links the plan looks at: CNI_IFNAME and the bridge, when they exist. */
export interface TapView {
  containerLinks: LinkInfo[];
}

/** The steps of a tap ADD; throws the reference's errors for what the view shows. */
export function tapSteps(conf: TapConfig, netns: string, ifName: string, view: TapView): PlanStep[] {
  if (view.containerLinks.some((l) => l.name === ifName))
    throw new Error(`failed to rename tap to "${ifName}": file exists`);
  if (conf.bridge !== "" && !view.containerLinks.some((l) => l.name === conf.bridge))
    throw new Error(`failed to get bridge ${conf.bridge}: Link not found`);
  const steps: PlanStep[] = [{ op: tapAddOp(conf, netns, ifName), undo: { op: "link.del", ns: netns, name: ifName } }];
  if (conf.mtu !== 0 || conf.mac !== "") {
    steps.push(
      keep({
        op: "link.set",
        ns: netns,
        name: ifName,
        ...(conf.mtu !== 0 ? { mtu: conf.mtu } : {}),
        ...(conf.mac !== "" ? { mac: conf.mac } : {}),
      }),
    );
  }
  if (conf.bridge !== "") steps.push(keep({ op: "link.set", ns: netns, name: ifName, master: conf.bridge }));
  steps.push(keep({ op: "link.set", ns: netns, name: ifName, up: true }));
  return steps;
}
