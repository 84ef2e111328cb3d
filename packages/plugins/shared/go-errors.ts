/**
 * Kernel failures and config decoding errors worded as the Go plugins word them, so the
 * messages of sbr and vrf read like the reference's: Go's vishvananda/netlink reports a
 * failed request by its errno (`file exists`, `network is unreachable`), not by
 * iproute2's text, which is what a {@link KernelError} carries.
 */
import * as v from "valibot";
import { KernelError } from "@tscni/kernel";
import type { CniError } from "@tscni/spec";
import { invalidConfig } from "./netconf.ts";

// iproute2's text (what the drivers report) to the errno text Go prints for the same failure.
const ERRNO: readonly [RegExp, string][] = [
  [/File exists/, "file exists"],
  [/No such file or directory/, "no such file or directory"],
  [/No such process/, "no such process"],
  [/Cannot find device|No such device/, "no such device"],
  [/Network is unreachable|Nexthop has invalid gateway/, "network is unreachable"],
  [/Nexthop device is not up|Device for nexthop is not up|Network is down/, "network is down"],
  [/Operation not supported|Unknown device type/, "operation not supported"],
  [/Invalid argument|Invalid /, "invalid argument"],
];

/** A failure's text as Go's netlink library prints it (`%v` of its error). */
export function goErrorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  if (!(err instanceof KernelError)) return text;
  for (const [re, errno] of ERRNO) if (re.test(text)) return errno;
  return text;
}

function jsonKind(x: unknown, goType: string): string {
  if (typeof x === "string") return "string";
  // A number that does not fit a numeric Go type is named with its literal (`number -1`).
  if (typeof x === "number")
    return /^u?int(8|16|32|64)?$/.test(goType) || !Number.isInteger(x) ? `number ${x}` : "number";
  if (typeof x === "boolean") return "bool";
  return Array.isArray(x) ? "array" : "object";
}

/**
 * Go's `json.Unmarshal` error for the first issue, under a plugin's prefix
 * (`failed to parse network configuration: json: cannot unmarshal string into Go struct
 * field PluginConf.table of type int`), as code 7 (SPEC §4.2; the Go plugins' 999).
 */
export function unmarshalError(prefix: string, struct: string, issue: v.BaseIssue<unknown>): CniError {
  const keys = (issue.path ?? []).map((p) => p.key).filter((k): k is string => typeof k === "string");
  const field = keys.length === 0 ? "" : ` into Go struct field ${struct}.${keys.join(".")}`;
  // v1.1.1 (Debian) differs: code 999 (a plain error); SPEC §4.2 gives code 7 (invalid network config)
  return invalidConfig(
    `${prefix}: json: cannot unmarshal ${jsonKind(issue.input, issue.message)}${field} of type ${issue.message}`,
  );
}
