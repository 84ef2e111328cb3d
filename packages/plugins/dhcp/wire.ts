/**
 * What the `dhcp` plugin and `cni dhcp daemon` say to each other, as the reference's:
 * Go net/rpc over HTTP CONNECT on the daemon's unix socket (`rpc.ts`, gob in `gob.ts`),
 * methods `DHCP.Allocate` (reply: current.Result) and `DHCP.Release` (reply: struct{}),
 * both taking the plugin's skel.CmdArgs. Our plugin works with the reference's daemon
 * and the reference's plugin with ours.
 */
import * as v from "valibot";

const str = v.optional(v.string(), "");

/** skel.CmdArgs as the daemon decodes it (gob leaves zero-valued fields out). */
export const CmdArgsSchema = v.object({
  ContainerID: str,
  Netns: str,
  IfName: str,
  Args: str,
  Path: str,
  StdinData: v.optional(v.instance(Uint8Array), () => new Uint8Array()),
});

/** One request to the daemon: the plugin's arguments, stdin as text. */
export interface DaemonRequest {
  containerID: string;
  netns: string;
  ifName: string;
  args: string;
  path: string;
  stdinData: string;
}

/** The decoded CmdArgs as a request; throws a valibot error on a malformed one. */
export function toDaemonRequest(raw: unknown): DaemonRequest {
  const a = v.parse(CmdArgsSchema, raw);
  return {
    containerID: a.ContainerID,
    netns: a.Netns,
    ifName: a.IfName,
    args: a.Args,
    path: a.Path,
    stdinData: new TextDecoder().decode(a.StdinData),
  };
}

/** The daemon's two methods, by their Go names. */
export const METHODS = { allocate: "DHCP.Allocate", release: "DHCP.Release" } as const;

/** The socket the daemon listens on unless told otherwise (main.go `defaultSocketPath`). */
export const DEFAULT_SOCKET = "/run/cni/dhcp.sock";
