/**
 * `cni del <network-name> <netns-path>`: cnitool's del (CT-1..CT-4).
 */
import type { Verb } from "../io.ts";
import { COMMON_OPTIONS, runVerb, setup } from "./_cnitool.ts";

const help = `usage: cni del <network-name> <netns-path> [options]

Runs DEL for every plugin of the network in reverse order, each given the cached ADD
result (cniVersion 0.4.0 or later), then removes the cache record.

${COMMON_OPTIONS}
`;

/** The del verb. */
export const verb: Verb = {
  summary: "detach a netns from a network (cnitool del)",
  help,
  run: (io) =>
    runVerb(io, help, async (args) => {
      const { list, rt, runtime } = await setup(io, args);
      await runtime.delNetworkList(list, rt);
    }),
};
