/**
 * macvlan CHECK (CHK-3): the shared sublink check (shared/sublink-check.ts) with the
 * reference macvlan's messages, lower case as its, and its sandbox check.
 */
import type { Result100 } from "@tscni/spec";
import { checkModeSublink, type ModeSublinkCheck, type SublinkCheckView } from "../shared/sublink-check.ts";
import { containerIface } from "../shared/sublink.ts";
import { macvlanMode } from "./config.ts";

const MACVLAN: ModeSublinkCheck = {
  kind: "macvlan",
  wantMode: macvlanMode,
  haveMode: (link) => link.macvlanMode,
  nameMissing: (name) => `container interface name missing in prevResult: ${name}`,
  notFound: (name) => `container Interface name in prevResult: ${name} not found`,
  notOfKind: (name) => `error: Container interface ${name} not of type macvlan`,
  modeMismatch: (have, want) => `container macvlan mode ${have} does not match expected value: ${want}`,
  macMismatch: (name, want, have) => `interface ${name} Mac ${want} doesn't match container Mac: ${have}`,
};

/** The sandbox problem the reference reports before it looks at the master, or undefined. */
export function macvlanSandboxProblem(prev: Result100, ifName: string, netns: string): string | undefined {
  const cont = containerIface(prev, ifName, netns);
  return cont.sandbox !== netns
    ? `sandbox in prevResult ${cont.sandbox} doesn't match configured netns: ${netns}`
    : undefined;
}

/** The first problem, or undefined when the attachment is as the result says. */
export function checkMacvlan(
  mode: string,
  ifName: string,
  netns: string,
  prev: Result100,
  view: SublinkCheckView,
): string | undefined {
  return checkModeSublink(MACVLAN, mode, ifName, netns, prev, view);
}
