/**
 * Moving a host device in and out, as plan steps (the reference's `moveLinkIn` and
 * `moveLinkOut`). The device's host name is kept as its alias (IFLA_IFALIAS) while it is
 * in the container, so DEL, ours or the reference's, can give it back its name. Pure.
 *
 * [DIFF] the reference goes through a temporary namespace so that the rename never meets
 * a name in the container or the host; we move directly (as v1.1.1 does), so a container
 * that already has a link named like the host device fails the ADD with "exists" and
 * rolls back.
 */
import { HOST, type LinkInfo } from "@tscni/kernel";
import type { PlanStep } from "../shared/steps.ts";
import { keep } from "../shared/steps.ts";

/** Moves `dev` from the host into `netns` as `ifName`, up, with its host name as alias. */
export function moveInSteps(dev: LinkInfo, netns: string, ifName: string): PlanStep[] {
  const steps: PlanStep[] = [];
  // Moving takes the link down; a failed ADD brings a device that was up back up (the reference's deferred LinkSetUp).
  if (dev.up)
    steps.push({
      op: { op: "link.set", ns: HOST, name: dev.name, up: false },
      undo: { op: "link.set", ns: HOST, name: dev.name, up: true },
    });
  steps.push({
    op: { op: "link.move", ns: HOST, name: dev.name, to: netns },
    undo: { op: "link.move", ns: netns, name: dev.name, to: HOST },
  });
  steps.push({
    op: {
      op: "link.set",
      ns: netns,
      name: dev.name,
      ...(dev.name !== ifName ? { newName: ifName } : {}),
      alias: dev.name,
    },
    undo: {
      op: "link.set",
      ns: netns,
      name: ifName,
      up: false,
      ...(dev.name !== ifName ? { newName: dev.name } : {}),
      alias: dev.alias ?? "",
    },
  });
  steps.push(keep({ op: "link.set", ns: netns, name: ifName, up: true }));
  return steps;
}

/** The reference's error when the container link has no alias to go back to. */
export function noAlias(ifName: string): Error {
  return new Error(`failed to find original ifname for "${ifName}" (alias is not set)`);
}

/** Moves the container link `cont` (named `ifName`) back to the host under its alias, alias cleared. */
export function moveOutSteps(cont: LinkInfo, netns: string): PlanStep[] {
  const hostName = cont.alias;
  if (hostName === undefined || hostName === "") throw noAlias(cont.name);
  const steps: PlanStep[] = [];
  if (cont.up)
    steps.push({
      op: { op: "link.set", ns: netns, name: cont.name, up: false },
      undo: { op: "link.set", ns: netns, name: cont.name, up: true },
    });
  const rename = hostName !== cont.name ? { newName: hostName } : {};
  const back = hostName !== cont.name ? { newName: cont.name } : {};
  steps.push({
    op: { op: "link.set", ns: netns, name: cont.name, ...rename, alias: "" },
    undo: { op: "link.set", ns: netns, name: hostName, ...back, alias: hostName },
  });
  steps.push({
    op: { op: "link.move", ns: netns, name: hostName, to: HOST },
    undo: { op: "link.move", ns: HOST, name: hostName, to: netns },
  });
  return steps;
}
