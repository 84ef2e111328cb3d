/**
 * The result cache's format (SPEC.md §7.4): file names, the `cniCacheV1` record and how
 * each reader treats it. Pure; the disk lives in `cache-disk.ts`.
 */
import { CniError, ErrorCode, convertResult, parseResult, resultToWire } from "@tscni/spec";
import type { Result } from "@tscni/spec";
import { goMarshal } from "@tscni/spec/go";
import type { NetworkAttachment, RuntimeConf } from "./runtime-conf.ts";

/** The `kind` of a cache record (CACHE-3). */
export const CACHE_KIND = "cniCacheV1";

/** The default cache directory of libcni (CACHE-1). */
export const DEFAULT_CACHE_DIR = "/var/lib/cni";

/** The file name of an attachment's record under `<cacheDir>/results/` (CACHE-1, CACHE-2). */
export function cacheFileName(networkName: string, rt: Pick<RuntimeConf, "containerID" | "ifName">): string {
  if (networkName === "" || rt.containerID === "" || rt.ifName === "") {
    throw new CniError(
      ErrorCode.Internal,
      `cache file path requires network name (${JSON.stringify(networkName)}), container ID (${JSON.stringify(rt.containerID)}), and interface name (${JSON.stringify(rt.ifName)})`,
    );
  }
  return `${networkName}-${rt.containerID}-${rt.ifName}`;
}

/**
 * The record written after a successful ADD (CACHE-3), in the Go struct's key order:
 * `config` as base64, `netns`, `cniArgs` and `capabilityArgs` omitted when empty.
 */
export function encodeCacheRecord(networkName: string, config: Uint8Array, rt: RuntimeConf, result: Result): string {
  const parts: string[] = [
    `"kind":${goMarshal(CACHE_KIND)}`,
    `"containerId":${goMarshal(rt.containerID)}`,
    `"config":${goMarshal(Buffer.from(config).toString("base64"))}`,
    `"ifName":${goMarshal(rt.ifName)}`,
    `"networkName":${goMarshal(networkName)}`,
  ];
  if (rt.netns !== "") parts.push(`"netns":${goMarshal(rt.netns)}`);
  if (rt.args !== undefined && rt.args.length > 0) parts.push(`"cniArgs":${goMarshal(rt.args)}`);
  if (rt.capabilityArgs !== undefined && Object.keys(rt.capabilityArgs).length > 0) {
    parts.push(`"capabilityArgs":${goMarshal(rt.capabilityArgs)}`);
  }
  parts.push(`"result":${goMarshal(resultToWire(result))}`);
  return `{${parts.join(",")}}`;
}

/** The fields of a parsed record; absent when the bytes are not a `cniCacheV1` object. */
interface CacheRecord {
  kind: unknown;
  containerId?: unknown;
  config?: unknown;
  ifName?: unknown;
  networkName?: unknown;
  netns?: unknown;
  cniArgs?: unknown;
  capabilityArgs?: unknown;
  result?: unknown;
}

function parseRecord(text: string): CacheRecord | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as CacheRecord) : undefined;
  } catch {
    return undefined;
  }
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");

function pairs(v: unknown): [string, string][] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.filter(
    (p): p is [string, string] => Array.isArray(p) && p.length === 2 && p.every((x) => typeof x === "string"),
  );
}

function objectOrUndefined(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/**
 * The cached result converted to the list's version (CACHE-5). A record that is not JSON or
 * not `cniCacheV1` is read as a bare result (the legacy format); what does not parse throws.
 */
export function decodeCachedResult(text: string, cniVersion: string): Result {
  const record = parseRecord(text);
  let raw: unknown;
  if (record !== undefined && record.kind === CACHE_KIND) {
    raw = record.result ?? null;
  } else {
    try {
      raw = JSON.parse(text);
    } catch (err) {
      throw new CniError(ErrorCode.DecodingFailure, `failed to parse cached result: ${(err as Error).message}`);
    }
  }
  const result = parseResult(raw);
  try {
    return convertResult(result, cniVersion);
  } catch (err) {
    const inner = CniError.from(err);
    throw new CniError(
      inner.code,
      `failed to convert cached result to config version ${JSON.stringify(cniVersion)}: ${inner.msg}`,
      inner.details,
    );
  }
}

/** The cached config bytes and the runtime arguments replayed from the record (CACHE-6). */
export function decodeCachedConfig(
  text: string,
  networkName: string,
  rt: RuntimeConf,
): { config: Uint8Array; rt: RuntimeConf } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CniError(
      ErrorCode.DecodingFailure,
      `failed to unmarshal cached network ${JSON.stringify(networkName)} config: ${(err as Error).message}`,
    );
  }
  const record = objectOrUndefined(value) as CacheRecord | undefined;
  if (record?.kind !== CACHE_KIND) {
    throw new CniError(
      ErrorCode.DecodingFailure,
      `read cached network ${JSON.stringify(networkName)} config has wrong kind: ${str(record?.kind)}`,
    );
  }
  const args = pairs(record.cniArgs);
  return {
    config: new Uint8Array(Buffer.from(str(record.config), "base64")),
    rt: { ...rt, ...(args !== undefined ? { args } : {}), capabilityArgs: objectOrUndefined(record.capabilityArgs) },
  };
}

/**
 * One file of the cache as an attachment (GA-3, GA-4), or undefined for anything to skip:
 * invalid JSON, another kind, a different container, an empty ifName or networkName.
 */
export function decodeAttachment(text: string, containerID: string): NetworkAttachment | undefined {
  const record = parseRecord(text);
  if (record === undefined || record.kind !== CACHE_KIND) return undefined;
  const cid = str(record.containerId);
  if (containerID !== "" && cid !== containerID) return undefined;
  const ifName = str(record.ifName);
  const network = str(record.networkName);
  if (ifName === "" || network === "") return undefined;
  const cniArgs = pairs(record.cniArgs);
  const capabilityArgs = objectOrUndefined(record.capabilityArgs);
  return {
    containerID: cid,
    network,
    ifName,
    config: new Uint8Array(Buffer.from(str(record.config), "base64")),
    netns: str(record.netns),
    ...(cniArgs !== undefined ? { cniArgs } : {}),
    ...(capabilityArgs !== undefined ? { capabilityArgs } : {}),
  };
}

/** Whether a file name can belong to `containerID` (GA-2: `-<cid>-` inside, not at either end). */
export function nameMayMatch(fileName: string, containerID: string): boolean {
  if (containerID === "") return true;
  const part = `-${containerID}-`;
  const pos = fileName.indexOf(part);
  return pos > 0 && pos + part.length < fileName.length;
}
