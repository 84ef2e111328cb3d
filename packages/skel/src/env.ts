/**
 * Steps 1 and 2 of the dispatcher (SPEC.md §1.11): read the CNI_* variables in the
 * reference's fixed order, validate values as they are scanned, collect the missing ones.
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
  validate?: (value: string) => CniError | undefined;
}

// The order is observable: missing names are listed in it (ENV-2), and the first invalid
// value returns at once, before later missing ones are seen (ENV-3). CNI_PATH is
// required as the reference skel does, though the spec says optional (ENV-1).
const VARS: readonly VarSpec[] = [
  { name: "CNI_COMMAND", field: "command", requiredFor: ["ADD", "CHECK", "DEL", "GC", "STATUS"] },
  {
    name: "CNI_CONTAINERID",
    field: "containerID",
    requiredFor: ["ADD", "CHECK", "DEL"],
    validate: validateContainerID,
  },
  { name: "CNI_NETNS", field: "netns", requiredFor: ["ADD", "CHECK"] },
  { name: "CNI_IFNAME", field: "ifName", requiredFor: ["ADD", "CHECK", "DEL"], validate: validateInterfaceName },
  { name: "CNI_ARGS", field: "args", requiredFor: [] },
  { name: "CNI_PATH", field: "path", requiredFor: ["ADD", "CHECK", "DEL", "GC", "STATUS"] },
  { name: "CNI_NETNS_OVERRIDE", field: "netnsOverride", requiredFor: [] },
];

/**
 * Reads and checks the environment. Returns the values, or the CniError that wins
 * (code 4: an invalid container ID or ifname, else `required env variables [A,B] missing`).
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
    const required = v.requiredFor.includes(command);
    if (value === "") {
      if (required || v.name === "CNI_COMMAND") missing.push(v.name);
    } else if (required && v.validate !== undefined) {
      const err = v.validate(value);
      if (err !== undefined) return err;
    }
  }
  if (missing.length > 0) {
    return new CniError(ErrorCode.InvalidEnvironmentVariables, `required env variables [${missing.join(",")}] missing`);
  }
  return out;
}
