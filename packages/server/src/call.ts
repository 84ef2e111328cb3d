/**
 * Turning a wire request into a CNI call the daemon can run (BRIEF seed design 3): the
 * command and attachment variables from the forwarded environment, the pod from
 * `CNI_ARGS`, and the shim's config from stdin.
 */
import { CniError, ErrorCode } from "@tscni/spec";
import { argValue, splitCniArgs as parseCniArgs } from "@tscni/spec/cni-args";
import { requestConfig } from "./wire.ts";
import type { WireRequest } from "./wire.ts";

/** The commands the daemon serves. */
export const COMMANDS = ["ADD", "DEL", "CHECK", "STATUS", "GC", "VERSION"] as const;

/** One of the commands the daemon serves. */
export type CniCommand = (typeof COMMANDS)[number];

/** A validated call. */
export interface CniCall {
  readonly command: CniCommand;
  readonly containerID: string;
  readonly netns: string;
  /** `CNI_IFNAME`, `eth0` when the shim did not get one. */
  readonly ifName: string;
  /** The `CNI_ARGS` pairs, passed on to the default network's plugins. */
  readonly args: [string, string][];
  /** `K8S_POD_NAMESPACE` and `K8S_POD_NAME` (required for ADD, CHECK and DEL). */
  readonly pod?: { readonly namespace: string; readonly name: string };
  /** The shim's config (stdin) as an object; `{}` when VERSION sent something else (VER-3). */
  readonly config: Readonly<Record<string, unknown>>;
  /** The version the shim's caller speaks: the config's `cniVersion`, may be empty. */
  readonly cniVersion: string;
}

/** The commands that act on one attachment and so need its variables and its pod. */
const ATTACHMENT_COMMANDS: readonly string[] = ["ADD", "DEL", "CHECK"];

function badEnv(msg: string): CniError {
  return new CniError(ErrorCode.InvalidEnvironmentVariables, msg);
}

function parseConfig(bytes: Uint8Array, command: CniCommand): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch (err) {
    // VERSION does not read its stdin (VER-3).
    if (command === "VERSION") return {};
    throw new CniError(
      ErrorCode.DecodingFailure,
      "invalid config: not JSON",
      err instanceof Error ? err.message : String(err),
    );
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  if (command === "VERSION") return {};
  throw new CniError(ErrorCode.DecodingFailure, "invalid config: not a JSON object");
}

/**
 * Validates a request: `CNI_COMMAND` is required; for ADD, CHECK and DEL so are
 * `CNI_CONTAINERID`, `CNI_NETNS` (non-empty except on DEL, DEL-2) and `CNI_ARGS`, which must
 * be `K=V` pairs naming `K8S_POD_NAMESPACE` and `K8S_POD_NAME`. `CNI_IFNAME` defaults to
 * `eth0`. GC and STATUS have no attachment (EX-5) and VERSION needs only the command (VER-1).
 * Throws a CniError: code 4 for the environment, 6 for the config.
 *
 * @example parseCniCall(decoded.value).command // "ADD"
 */
export function parseCniCall(request: WireRequest): CniCall {
  const env = request.env;
  const command = env.CNI_COMMAND;
  if (command === undefined || command === "") throw badEnv("missing CNI_COMMAND");
  if (!(COMMANDS as readonly string[]).includes(command)) throw badEnv(`unknown CNI_COMMAND: ${command}`);
  const cmd = command as CniCommand;
  const attachment = ATTACHMENT_COMMANDS.includes(cmd);
  const containerID = env.CNI_CONTAINERID;
  const netns = env.CNI_NETNS;
  const cniArgs = env.CNI_ARGS;
  if (attachment) {
    if (containerID === undefined || containerID === "") throw badEnv("missing CNI_CONTAINERID");
    if (netns === undefined || (netns === "" && cmd !== "DEL")) throw badEnv("missing CNI_NETNS");
    if (cniArgs === undefined) throw badEnv("missing CNI_ARGS");
  }
  const parsed = parseCniArgs(cniArgs ?? "");
  if (!parsed.ok)
    throw badEnv(`invalid CNI_ARGS pair ${JSON.stringify(parsed.piece)}: expected K=V pairs separated by ";"`);
  const namespace = argValue(parsed.pairs, "K8S_POD_NAMESPACE");
  const name = argValue(parsed.pairs, "K8S_POD_NAME");
  if (attachment) {
    if (namespace === undefined || namespace === "") throw badEnv("missing K8S_POD_NAMESPACE in CNI_ARGS");
    if (name === undefined || name === "") throw badEnv("missing K8S_POD_NAME in CNI_ARGS");
  }
  const config = parseConfig(requestConfig(request), cmd);
  const ifName = env.CNI_IFNAME;
  return {
    command: cmd,
    containerID: containerID ?? "",
    netns: netns ?? "",
    ifName: ifName === undefined || ifName === "" ? "eth0" : ifName,
    args: parsed.pairs,
    ...(namespace !== undefined && name !== undefined ? { pod: { namespace, name } } : {}),
    config,
    cniVersion: typeof config.cniVersion === "string" ? config.cniVersion : "",
  };
}
