/**
 * The plugin's side of the daemon's socket (the reference's main.go `rpcCall`): one POST
 * per command; failures carry the reference's texts (`error dialing DHCP daemon: ...`,
 * `error calling DHCP.Allocate: ...`) so kubelet events read alike.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { CmdArgs } from "@tscni/skel";
import { type DaemonMethod, type DaemonRequest, RPC_NAMES } from "./wire.ts";

/** Sends one command's arguments to the daemon at `socket`; the daemon's JSON answer. */
export async function callDaemon(socket: string, method: DaemonMethod, a: CmdArgs): Promise<unknown> {
  // The daemon may run in another working directory: the netns path must be absolute (main.go).
  const body: DaemonRequest = { containerID: a.containerID, netns: resolve(a.netns), ifName: a.ifName, args: a.args, path: a.path, stdinData: new TextDecoder().decode(a.stdinData) };
  let res: Response;
  try {
    res = await fetch(`http://dhcp/${method}`, { unix: socket, method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" }, timeout: false } as RequestInit);
  } catch {
    // Go's net.Dial texts: the socket file missing, or nobody listening on it.
    const why = existsSync(socket) ? "connection refused" : "no such file or directory";
    throw new Error(`error dialing DHCP daemon: dial unix ${socket}: connect: ${why}`);
  }
  const text = await res.text();
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw new Error(`error calling ${RPC_NAMES[method]}: unexpected answer from the daemon (HTTP ${res.status})`);
  }
  if (!res.ok) {
    const msg = (answer as { error?: unknown }).error;
    throw new Error(`error calling ${RPC_NAMES[method]}: ${typeof msg === "string" ? msg : `HTTP ${res.status}`}`);
  }
  return answer;
}
