/**
 * `cni add <network-name> <netns-path>`: cnitool's add (CT-1..CT-4).
 */
import { resultToJSON } from "@tscni/spec";
import type { Verb } from "../io.ts";
import { COMMON_OPTIONS, runVerb, setup } from "./_cnitool.ts";

const help = `usage: cni add <network-name> <netns-path> [options]

Runs ADD for every plugin of the network in order and prints the result as JSON.
The container ID is cnitool's: "cnitool-" + the hex of the first 10 bytes of the
SHA-512 of the absolute netns path, so cnitool and cni name the same attachment.

${COMMON_OPTIONS}
`;

/** The add verb. */
export const verb: Verb = {
  summary: "attach a netns to a network (cnitool add)",
  help,
  run: (io) =>
    runVerb(io, help, async (args) => {
      const { list, rt, runtime } = await setup(io, args);
      const result = await runtime.addNetworkList(list, rt);
      io.stdout(`${resultToJSON(result)}\n`);
    }),
};
