/**
 * Steps 1 and 2 of the dispatcher (SPEC.md §1.11): read the CNI_* variables in the
 * reference's fixed order and collect the missing ones. The values of CNI_CONTAINERID and
 * CNI_IFNAME are checked later, after the config ({@link validateIdentity}).
 */
import { CniError, ErrorCode } from "@tscni/spec";
import { validateContainerID, validateInterfaceName } from "./validate.ts";

/** The CNI_* values of one invocation. */
export interface CniEnv {
  command: string;
  containerID: string;
  netns: string;
  ifName: string;
  args: string;
  path: string;
  netnsOverride: string;
}

type Field = keyof CniEnv;

interface VarSpec {
  name: string;
  field: Field;
  /** Commands for which an empty value is "missing" (the §1.1 table, skel column). */
  requiredFor: readonly string[];
}

// The order is observable: missing names are listed in it (ENV-2). CNI_PATH is required
// as the reference skel does, though the spec says optional (ENV-1).
const VARS: readonly VarSpec[] = [
  { name: "CNI_COMMAND", field: "command", requiredFor: ["ADD", "CHECK", "DEL", "GC", "STATUS"] },
  { name: "CNI_CONTAINERID", field: "containerID", requiredFor: ["ADD", "CHECK", "DEL"] },
  { name: "CNI_NETNS", field: "netns", requiredFor: ["ADD", "CHECK"] },
  { name: "CNI_IFNAME", field: "ifName", requiredFor: ["ADD", "CHECK", "DEL"] },
  { name: "CNI_ARGS", field: "args", requiredFor: [] },
  { name: "CNI_PATH", field: "path", requiredFor: ["ADD", "CHECK", "DEL", "GC", "STATUS"] },
  { name: "CNI_NETNS_OVERRIDE", field: "netnsOverride", requiredFor: [] },
];

/**
 * Reads the environment. Returns the values, or code 4 `required env variables [A,B] missing`.
 *
 * @example readCniEnv({ CNI_COMMAND: "VERSION" }) // { command: "VERSION", containerID: "", ... }
 */
export function readCniEnv(env: Readonly<Record<string, string | undefined>>): CniEnv | CniError {
  const out: CniEnv = { command: "", containerID: "", netns: "", ifName: "", args: "", path: "", netnsOverride: "" };
  const command = env.CNI_COMMAND ?? "";
  const missing: string[] = [];
  for (const v of VARS) {
    const value = env[v.name] ?? "";
    out[v.field] = value;
    if (value === "" && (v.requiredFor.includes(command) || v.name === "CNI_COMMAND")) missing.push(v.name);
  }
  if (missing.length > 0) {
    return new CniError(ErrorCode.InvalidEnvironmentVariables, `required env variables [${missing.join(",")}] missing`);
  }
  return out;
}

/** Commands whose container ID and interface name are not checked (no attachment: ST-5, GC-6). */
const NO_ATTACHMENT: readonly string[] = ["VERSION", "GC", "STATUS"];

/**
 * The reference skel's identity check, made after the config passed (v1.1 order): the
 * container ID (an empty one is code 3 `missing containerID`, possible for an unknown
 * command), then the interface name, for every command with an attachment, unknown
 * commands included.
 *
 * @example validateIdentity({ ...env, command: "FOO", containerID: "" })?.code // 3
 */
export function validateIdentity(env: CniEnv): CniError | undefined {
  if (NO_ATTACHMENT.includes(env.command)) return undefined;
  return validateContainerID(env.containerID) ?? validateInterfaceName(env.ifName);
}
