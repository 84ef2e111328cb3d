/**
 * Building what each plugin reads on stdin (SPEC.md §2.4, RC-1..RC-7): the plugin object
 * decoded into a generic map, the runtime's keys set, re-encoded (RC-6).
 */
import { CniError, ErrorCode, resultToWire } from "@tscni/spec";
import type { PluginConf, Result } from "@tscni/spec";
import type { NetworkConfig } from "@tscni/config";
import { goMarshalBytes } from "@tscni/spec/go";
import type { GCArgs, RuntimeConf } from "./runtime-conf.ts";

const decoder = new TextDecoder();

/**
 * Sets `inject`'s keys on the plugin object and re-encodes it (the Go lib's InjectConf).
 * Other keys, `capabilities` and any `cni.dev/*` key included, pass through (RC-4).
 */
export function injectConf(plugin: NetworkConfig, inject: Readonly<Record<string, unknown>>): NetworkConfig {
  const config = JSON.parse(decoder.decode(plugin.bytes)) as Record<string, unknown>;
  for (const [key, value] of Object.entries(inject)) {
    if (key === "") throw new CniError(ErrorCode.InvalidNetworkConfig, "keys cannot be empty");
    if (value === null || value === undefined)
      throw new CniError(ErrorCode.InvalidNetworkConfig, `key '${key}' value must not be nil`);
    config[key] = value;
  }
  const bytes = goMarshalBytes(config);
  return { network: config as PluginConf, bytes };
}

/**
 * The capability arguments a plugin declared and enabled (CAP-1, CAP-2); undeclared or
 * `false` capabilities are not passed.
 */
export function runtimeConfigFor(
  plugin: PluginConf,
  capabilityArgs: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> {
  const rc: Record<string, unknown> = {};
  for (const [capability, enabled] of Object.entries(plugin.capabilities ?? {})) {
    if (enabled !== true || capabilityArgs === undefined) continue;
    if (Object.hasOwn(capabilityArgs, capability)) rc[capability] = capabilityArgs[capability];
  }
  return rc;
}

/**
 * The ADD/CHECK/DEL request (RC-1, RC-2, RC-5): `name` and `cniVersion` overwritten, the
 * `prevResult` when given, and `runtimeConfig` replaced only when a capability matched, so a
 * static `runtimeConfig` in the file stays when nothing is injected.
 */
export function buildRequest(
  listName: string,
  cniVersion: string,
  plugin: NetworkConfig,
  prevResult: Result | undefined,
  rt: RuntimeConf,
): NetworkConfig {
  const inject: Record<string, unknown> = { name: listName, cniVersion };
  // The result as Go marshals its typed struct: the fields its version writes (R-3).
  if (prevResult !== undefined) inject.prevResult = resultToWire(prevResult);
  const withKeys = injectConf(plugin, inject);
  const rc = runtimeConfigFor(withKeys.network, rt.capabilityArgs);
  return Object.keys(rc).length > 0 ? injectConf(withKeys, { runtimeConfig: rc }) : withKeys;
}

/**
 * The GC request (RC-3, RC-7, GC-9): `name`, `cniVersion`, and when there are arguments the
 * valid attachments under both `cni.dev/valid-attachments` and the misspelt
 * `cni.dev/attachments` of the v1.1.0 spec text.
 */
export function buildGCRequest(
  listName: string,
  cniVersion: string,
  plugin: NetworkConfig,
  args: GCArgs | undefined,
): NetworkConfig {
  const inject: Record<string, unknown> = { name: listName, cniVersion };
  if (args !== undefined) {
    const valid = args.validAttachments.map((a) => ({ containerID: a.containerID, ifname: a.ifname }));
    inject["cni.dev/valid-attachments"] = valid;
    inject["cni.dev/attachments"] = valid;
  }
  return injectConf(plugin, inject);
}

/** The STATUS request: only `name` and `cniVersion` are set (RC-7). */
export function buildStatusRequest(listName: string, cniVersion: string, plugin: NetworkConfig): NetworkConfig {
  return injectConf(plugin, { name: listName, cniVersion });
}

/** `type="bridge"`, plus ` name="..."` when the plugin object has its own name (E-8). */
export function pluginDescription(plugin: PluginConf): string {
  const name = typeof plugin.name === "string" && plugin.name !== "" ? ` name=${JSON.stringify(plugin.name)}` : "";
  return `type=${JSON.stringify(plugin.type)}${name}`;
}

/** Wraps a plugin's failure as libcni does, keeping its code (E-8): `plugin type="x" failed (add): ...`. */
export function wrapPluginError(plugin: PluginConf, operation: "add" | "delete", err: unknown): CniError {
  const inner = CniError.from(err);
  return new CniError(
    inner.code,
    `plugin ${pluginDescription(plugin)} failed (${operation}): ${inner.msg}`,
    inner.details,
  );
}
