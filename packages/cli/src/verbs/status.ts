/**
 * `cni status <network-name> <netns-path>`: cnitool's status (CT-4).
 */
import type { Verb } from "../io.ts";
import { COMMON_OPTIONS, runVerb, setup } from "./_cnitool.ts";

const help = `usage: cni status <network-name> <netns-path> [options]

Asks every plugin of the network whether it is ready for ADDs (cniVersion 1.1.0 or
later; older lists are ready by definition). The first plugin that is not ready fails
the command with its own error (codes 50 and 51 mean "not available").
The netns argument is required but unused.

${COMMON_OPTIONS}
`;

/** The status verb. */
export const verb: Verb = {
  summary: "ask a network's plugins whether they are ready (cnitool status)",
  help,
  run: (io) =>
    runVerb(io, help, async (args) => {
      const { list, runtime } = await setup(io, args);
      await runtime.getStatusNetworkList(list);
    }),
};
