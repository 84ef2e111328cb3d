/**
 * ipvlan CHECK (CHK-3): the shared sublink check (shared/sublink-check.ts) with the
 * reference ipvlan's messages, capitalised as its.
 */
import type { Result100 } from "@tscni/spec";
import { checkModeSublink, type ModeSublinkCheck, type SublinkCheckView } from "../shared/sublink-check.ts";
import { ipvlanMode } from "./config.ts";

const IPVLAN: ModeSublinkCheck = {
  kind: "ipvlan",
  wantMode: ipvlanMode,
  haveMode: (link) => link.ipvlanMode,
  nameMissing: (name) => `Container interface name missing in prevResult: ${name}`,
  notFound: (name) => `Container Interface name in prevResult: ${name} not found`,
  notOfKind: (name) => `Error: Container interface ${name} not of type ipvlan`,
  modeMismatch: (have, want) => `Container IPVlan mode ${have} does not match expected value: ${want}`,
  macMismatch: (name, want, have) => `Interface ${name} Mac ${want} doesn't match container Mac: ${have}`,
};

/** The first problem, or undefined when the attachment is as the result says. */
export function checkIpvlan(
  mode: string,
  ifName: string,
  netns: string,
  prev: Result100,
  view: SublinkCheckView,
): string | undefined {
  return checkModeSublink(IPVLAN, mode, ifName, netns, prev, view);
}
