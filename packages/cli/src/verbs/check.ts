/**
 * `cni check <network-name> <netns-path>`: cnitool's check (CT-1..CT-4).
 */
import type { Verb } from "../io.ts";
import { COMMON_OPTIONS, runVerb, setup } from "./_cnitool.ts";

const help = `usage: cni check <network-name> <netns-path> [options]

Runs CHECK for every plugin of the network in order, each given the cached ADD result.
Needs cniVersion 0.4.0 or later; succeeds at once when the list sets disableCheck.

${COMMON_OPTIONS}
`;

/** The check verb. */
export const verb: Verb = {
  summary: "check an attachment against its cached result (cnitool check)",
  help,
  run: (io) =>
    runVerb(io, help, async (args) => {
      const { list, rt, runtime } = await setup(io, args);
      await runtime.checkNetworkList(list, rt);
    }),
};
