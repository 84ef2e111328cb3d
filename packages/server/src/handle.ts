/**
 * Running a validated call against the node's default network (BRIEF seed design 3): ADD
 * adds the default network for that container, DEL and CHECK likewise, GC and STATUS act
 * on the default network, VERSION is answered by the daemon itself.
 */
import type { GCArgs, GCAttachment, PodNetwork, PodNetworkManager, RuntimeConf } from "@tscni/runtime";
import { CURRENT_VERSION, VERSIONS, convertResult, isKnownVersion, resultToWire } from "@tscni/spec";
import type { Result } from "@tscni/spec";
import type { CniCall } from "./call.ts";
import type { CommandGate } from "./gate.ts";

/** The result object of a call, or undefined for commands without one. */
export type CallOutput = Record<string, unknown> | undefined;

/** The attachment of a call; the shim's `runtimeConfig` becomes the capability arguments (CAP-1). */
function runtimeConf(call: CniCall): RuntimeConf {
  const rc = call.config.runtimeConfig;
  const capabilityArgs =
    rc !== null && typeof rc === "object" && !Array.isArray(rc) ? (rc as Record<string, unknown>) : undefined;
  return {
    containerID: call.containerID,
    netns: call.netns,
    ifName: call.ifName,
    args: call.args,
    ...(capabilityArgs !== undefined ? { capabilityArgs } : {}),
  };
}

/** The GC arguments of the shim's request: its valid attachments, or undefined (all stale, §7.7) when it sent none. */
function gcArgs(call: CniCall): GCArgs | undefined {
  const valid = call.config["cni.dev/valid-attachments"] ?? call.config["cni.dev/attachments"];
  if (!Array.isArray(valid)) return undefined;
  const validAttachments: GCAttachment[] = [];
  for (const a of valid as unknown[]) {
    if (a === null || typeof a !== "object") continue;
    const { containerID, ifname } = a as Record<string, unknown>;
    if (typeof containerID === "string" && typeof ifname === "string") validAttachments.push({ containerID, ifname });
  }
  return { validAttachments };
}

/** The default network's result in the version the shim's caller speaks (when it names one). */
function outputFor(call: CniCall, network: PodNetwork, result: Result): Record<string, unknown> {
  const wanted = call.cniVersion !== "" ? call.cniVersion : network.list.cniVersion;
  return resultToWire(wanted === result.cniVersion ? result : convertResult(result, wanted));
}

/**
 * Runs `call` through the manager; throws the CniError of the failure (the manager's
 * "not initialized" included). With a gate, GC runs alone and ADD, CHECK and DEL side by
 * side (GC-8).
 *
 * @example await runCniCall(manager, parseCniCall(request), gate)
 */
export async function runCniCall(manager: PodNetworkManager, call: CniCall, gate?: CommandGate): Promise<CallOutput> {
  if (gate === undefined || call.command === "VERSION" || call.command === "STATUS") return runUngated(manager, call);
  return call.command === "GC"
    ? gate.exclusive(() => runUngated(manager, call))
    : gate.shared(() => runUngated(manager, call));
}

async function runUngated(manager: PodNetworkManager, call: CniCall): Promise<CallOutput> {
  switch (call.command) {
    case "VERSION":
      // We convert the default network's result to any version, so we speak them all.
      return {
        cniVersion: isKnownVersion(call.cniVersion) ? call.cniVersion : CURRENT_VERSION,
        supportedVersions: [...VERSIONS],
      };
    case "STATUS": {
      // STATUS re-reads the config dir, as the manager's status does.
      const network = await manager.status();
      await network.runtime.getStatusNetworkList(network.list);
      return undefined;
    }
    case "GC": {
      const network = await manager.network();
      await network.runtime.gcNetworkList(network.list, gcArgs(call));
      return undefined;
    }
    case "ADD": {
      const network = await manager.network();
      const result = await network.runtime.addNetworkList(network.list, runtimeConf(call));
      return outputFor(call, network, result);
    }
    case "CHECK": {
      const network = await manager.network();
      await network.runtime.checkNetworkList(network.list, runtimeConf(call));
      return undefined;
    }
    case "DEL": {
      const network = await manager.network();
      await network.runtime.delNetworkList(network.list, runtimeConf(call));
      return undefined;
    }
  }
}
