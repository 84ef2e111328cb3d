/**
 * `cni gc <network-name> <netns-path>`: cnitool's gc (CT-4): no valid attachments, so every
 * cached attachment of the network is deleted, then GC goes to each plugin (1.1.0+).
 */
import type { Verb } from "../io.ts";
import { COMMON_OPTIONS, runVerb, setup } from "./_cnitool.ts";

const help = `usage: cni gc <network-name> <netns-path> [options]

Like cnitool gc: treats EVERY cached attachment of the network as stale and runs DEL
for each, then sends GC to each plugin (cniVersion 1.1.0 or later) without a
valid-attachments list. The netns argument is required but unused.

${COMMON_OPTIONS}
`;

/** The gc verb. */
export const verb: Verb = {
  summary: "delete every cached attachment of a network, then GC its plugins (cnitool gc)",
  help,
  run: (io) =>
    runVerb(io, help, async (args) => {
      const { list, runtime } = await setup(io, args);
      await runtime.gcNetworkList(list, undefined);
    }),
};
