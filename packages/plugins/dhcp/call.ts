/**
 * The plugin's side of the daemon's socket (the reference's main.go `rpcCall`): one Go
 * net/rpc call per command; failures carry the reference's texts (`error dialing DHCP
 * daemon: ...`, `error calling DHCP.Allocate: ...`) so kubelet events read alike.
 */
import { resolve } from "node:path";
import type { CmdArgs as SkelArgs } from "@tscni/skel";
import type { Result100 } from "@tscni/spec";
import { fromGoResult } from "./rpc-result.ts";
import { CmdArgs } from "./rpc-types.ts";
import { DialError, rpcCall } from "./rpc.ts";
import { METHODS } from "./wire.ts";

/** Calls `method` on the daemon at `socket` with the plugin's arguments; Allocate's result, or undefined for Release. */
export async function callDaemon(
  socket: string,
  method: keyof typeof METHODS,
  a: SkelArgs,
): Promise<Result100 | undefined> {
  // The daemon may run in another working directory: the netns path must be absolute (main.go).
  const args = {
    ContainerID: a.containerID,
    Netns: resolve(a.netns),
    IfName: a.ifName,
    Args: a.args,
    Path: a.path,
    StdinData: a.stdinData,
  };
  let reply: unknown;
  try {
    reply = await rpcCall(socket, METHODS[method], CmdArgs, args);
  } catch (err) {
    if (err instanceof DialError) throw new Error(`error dialing DHCP daemon: ${err.message}`);
    throw new Error(`error calling ${METHODS[method]}: ${(err as Error).message}`);
  }
  return method === "allocate" ? fromGoResult(reply as Record<string, unknown>) : undefined;
}
