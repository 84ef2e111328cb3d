/**
 * host-local's inputs at the protocol edge: CNI_ARGS `IP=` (CA-3, CA-6: parsed on DEL
 * too) and the `ipam` config, turned into `CniError`s with the reference's messages.
 */
import {
  type IPAMConfig,
  type StoreLocation,
  loadIPAMConfig,
  loadStoreLocation,
  parseIPMaybePrefix,
} from "@tscni/ipam";
import type { IP } from "@tscni/spec/ipnet";
import { parseCniArgs } from "@tscni/skel";
import type { CmdArgs } from "@tscni/skel";
import { CniError, ErrorCode } from "@tscni/spec";

/** The requested address of CNI_ARGS `IP=<ip>[/<prefix>]`; an empty value requests nothing. */
export function envRequestedIP(cniArgs: string): IP | undefined {
  const value = parseCniArgs(cniArgs, ["IP"]).IP;
  if (value === undefined || value === "") return undefined;
  const ip = parseIPMaybePrefix(value);
  if (ip === undefined) {
    throw new CniError(
      ErrorCode.InvalidEnvironmentVariables,
      `ARGS: error parsing value of pair ${JSON.stringify(`IP=${value}`)}: invalid IP address ${value}`,
    );
  }
  return ip;
}

/**
 * Loads the full host-local config of an invocation. Failures are code 7 (invalid network
 * config, SPEC §4.2) with the reference's message; a bad CNI_ARGS `IP=` is code 4.
 */
export function loadConfig(a: CmdArgs): IPAMConfig {
  const out = loadIPAMConfig(a.config, envRequestedIP(a.args));
  // v1.1.1 (Debian) differs: code 999 (its LoadIPAMConfig returns plain errors); SPEC §4.2 gives code 7
  if (!out.ok) throw new CniError(ErrorCode.InvalidNetworkConfig, out.error);
  return out.value;
}

/** Loads only the store's location (GC, STATUS: no runtimeConfig there, CAP-2). */
export function loadLocation(a: CmdArgs): StoreLocation {
  const out = loadStoreLocation(a.config);
  if (!out.ok) throw new CniError(ErrorCode.InvalidNetworkConfig, out.error);
  return out.value;
}

/** The attachments GC must keep (GC-2); libcni also sends the misnamed `cni.dev/attachments` (GC-9). */
export function validAttachments(config: Record<string, unknown>): { containerID: string; ifname: string }[] {
  const raw = config["cni.dev/valid-attachments"] ?? config["cni.dev/attachments"] ?? [];
  if (!Array.isArray(raw))
    throw new CniError(ErrorCode.InvalidNetworkConfig, "cni.dev/valid-attachments must be an array");
  return raw.map((item, i) => {
    const a = item as { containerID?: unknown; ifname?: unknown } | null;
    if (typeof a?.containerID !== "string" || typeof a.ifname !== "string") {
      throw new CniError(
        ErrorCode.InvalidNetworkConfig,
        `cni.dev/valid-attachments[${i}] needs string containerID and ifname`,
      );
    }
    return { containerID: a.containerID, ifname: a.ifname };
  });
}
