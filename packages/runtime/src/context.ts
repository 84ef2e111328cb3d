/**
 * What every list operation needs: where plugins live, how to run them, the cache.
 */
import type { CniArgs, Exec, InvokeOptions } from "@tscni/invoke";
import type { Result } from "@tscni/spec";
import type { NetworkConfigList } from "@tscni/config";
import { cacheFileName, decodeCachedResult } from "./cache.ts";
import type { DiskCache } from "./cache-disk.ts";
import type { RuntimeConf } from "./runtime-conf.ts";

/** The shared state of a runtime's operations. */
export interface RuntimeContext {
  readonly paths: readonly string[];
  readonly exec: Exec;
  readonly timeoutMs: number;
  readonly cache: DiskCache;
  /** The environment plugins inherit (P-8); default `process.env`. */
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
}

/** The invoke options of one plugin call. */
export function invokeOptions(ctx: RuntimeContext): InvokeOptions {
  return { exec: ctx.exec, timeoutMs: ctx.timeoutMs, ...(ctx.baseEnv !== undefined ? { baseEnv: ctx.baseEnv } : {}) };
}

/** The CNI variables of a call; `CNI_PATH` is the runtime's paths joined with `:` (EX-4). */
export function cniArgs(ctx: RuntimeContext, command: string, rt: RuntimeConf | undefined): CniArgs {
  return {
    command,
    containerID: rt?.containerID ?? "",
    netns: rt?.netns ?? "",
    pluginArgs: rt?.args ?? [],
    ifName: rt?.ifName ?? "",
    path: ctx.paths.join(":"),
  };
}

/**
 * The cached ADD result of an attachment converted to the list's version (CACHE-5);
 * undefined when there is no readable file. Throws when the file does not decode.
 */
export async function cachedResult(
  ctx: RuntimeContext,
  list: Pick<NetworkConfigList, "name" | "cniVersion">,
  rt: RuntimeConf,
): Promise<Result | undefined> {
  const text = await ctx.cache.read(cacheFileName(list.name, rt));
  if (text === undefined) return undefined;
  return decodeCachedResult(text, list.cniVersion);
}
