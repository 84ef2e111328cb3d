/**
 * Asking a plugin which spec versions it supports (VER-4..VER-6).
 */
import { CURRENT_VERSION, CniError, ErrorCode } from "@tscni/spec";
import type { VersionInfo } from "@tscni/spec";
import { goJsonKind, parseGoJson } from "@tscni/spec/go";
import { execPluginRaw } from "./run.ts";
import type { InvokeOptions } from "./run.ts";

/** The message an old skel gives for a command it does not know (VER-5). */
const UNKNOWN_VERSION_COMMAND = "unknown CNI_COMMAND: VERSION";

/**
 * Decodes a VERSION reply like the Go PluginDecoder (VER-6): `cniVersion` is required;
 * `supportedVersions` is required and non-empty, except that a bare 0.2.0 reply means
 * `["0.1.0","0.2.0"]`.
 */
export function decodeVersionInfo(stdout: Uint8Array | string): VersionInfo {
  const text = typeof stdout === "string" ? stdout : new TextDecoder().decode(stdout);
  const fail = (why: string): CniError => new CniError(ErrorCode.DecodingFailure, `decoding version info: ${why}`);
  let value: unknown;
  try {
    value = parseGoJson(text);
  } catch (err) {
    throw fail((err as Error).message);
  }
  if (value !== null && (typeof value !== "object" || Array.isArray(value))) {
    throw fail(`json: cannot unmarshal ${goJsonKind(value)} into Go value of type version.pluginInfo`);
  }
  const obj = (value ?? {}) as Record<string, unknown>;
  const cniVersion = obj.cniVersion ?? "";
  if (typeof cniVersion !== "string") {
    throw fail(
      `json: cannot unmarshal ${goJsonKind(cniVersion)} into Go struct field pluginInfo.cniVersion of type string`,
    );
  }
  const supported = obj.supportedVersions ?? [];
  if (!Array.isArray(supported) || !supported.every((v): v is string => typeof v === "string")) {
    throw fail(
      "json: cannot unmarshal supportedVersions into Go struct field pluginInfo.supportedVersions of type []string",
    );
  }
  if (cniVersion === "") throw fail("missing field cniVersion");
  if (supported.length === 0) {
    if (cniVersion === "0.2.0") return { cniVersion: CURRENT_VERSION, supportedVersions: ["0.1.0", "0.2.0"] };
    throw fail("missing field supportedVersions");
  }
  return { cniVersion, supportedVersions: [...supported] };
}

/**
 * Runs VERSION on the plugin at `pluginPath` (VER-4): stdin `{"cniVersion":"1.1.0"}`,
 * with dummy NETNS, IFNAME and PATH so old skels accept the call. A plugin that answers
 * exactly `unknown CNI_COMMAND: VERSION` supports only 0.1.0 (VER-5).
 */
export async function getVersionInfo(pluginPath: string, options: InvokeOptions = {}): Promise<VersionInfo> {
  const stdin = new TextEncoder().encode(JSON.stringify({ cniVersion: CURRENT_VERSION }));
  let stdout: Uint8Array;
  try {
    stdout = await execPluginRaw(
      pluginPath,
      stdin,
      { command: "VERSION", netns: "dummy", ifName: "dummy", path: "dummy" },
      options,
    );
  } catch (err) {
    if (err instanceof CniError && err.toString() === UNKNOWN_VERSION_COMMAND) {
      return { cniVersion: CURRENT_VERSION, supportedVersions: ["0.1.0"] };
    }
    throw err;
  }
  return decodeVersionInfo(stdout);
}
