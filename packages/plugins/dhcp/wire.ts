/**
 * What the `dhcp` plugin and `cni dhcp daemon` say to each other over the daemon's unix
 * socket: HTTP POST `/allocate` and `/release` with the plugin's arguments as JSON (the
 * fields of the reference's `skel.CmdArgs`, stdin as text); 200 with a result (allocate)
 * or `{}`, 400 with `{ "error": msg }`. The reference's daemon speaks Go net/rpc (gob)
 * instead; see README.md for why ours does not.
 */
import * as v from "valibot";

/** The plugin's arguments as the daemon receives them. */
export const DaemonRequestSchema = v.object({
  containerID: v.string(),
  netns: v.string(),
  ifName: v.string(),
  args: v.string(),
  path: v.string(),
  stdinData: v.string(),
});

/** One request to the daemon. */
export type DaemonRequest = v.InferOutput<typeof DaemonRequestSchema>;

/** The daemon's two methods (the reference's `DHCP.Allocate` and `DHCP.Release`). */
export type DaemonMethod = "allocate" | "release";

/** The reference's RPC method names, used in error messages. */
export const RPC_NAMES: Readonly<Record<DaemonMethod, string>> = { allocate: "DHCP.Allocate", release: "DHCP.Release" };

/** The socket the daemon listens on unless told otherwise (main.go `defaultSocketPath`). */
export const DEFAULT_SOCKET = "/run/cni/dhcp.sock";
