/**
 * The thin file-system side of config loading: read a directory's regular files, then
 * hand their bytes to the pure rules (select.ts, drop-ins.ts, default-network.ts).
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { CniError, ErrorCode } from "@tscni/spec";
import { hasExtension } from "./_files.ts";
import { defaultNetwork, type DefaultNetworkPick } from "./default-network.ts";
import { confListFromFile } from "./drop-ins.ts";
import { selectNetwork } from "./select.ts";
import type { ConfFile, NetworkConfigList } from "./types.ts";

function errno(err: unknown): string | undefined {
  return typeof err === "object" && err !== null && "code" in err ? String((err as { code: unknown }).code) : undefined;
}

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Reads one file, failing with libcni's `error reading <path>` (code 5). */
export function readConfFile(path: string): ConfFile {
  try {
    return { path, bytes: new Uint8Array(readFileSync(path)) };
  } catch (err) {
    throw new CniError(ErrorCode.IOFailure, `error reading ${path}: ${reason(err)}`);
  }
}

/**
 * The regular files directly in `dir` whose extension is one of `exts` (symlinks followed,
 * subdirectories ignored). A missing directory has no files (§2.7 step 1, DI-2).
 */
export function readConfDir(dir: string, exts: readonly string[], listError = `failed to read ${dir}`): ConfFile[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    if (errno(err) === "ENOENT") return [];
    throw new CniError(ErrorCode.IOFailure, `${listError}: ${reason(err)}`);
  }
  const out: ConfFile[] = [];
  for (const name of names) {
    const path = join(dir, name);
    if (!hasExtension(path, exts)) continue;
    try {
      if (!statSync(path).isFile()) continue;
    } catch {
      continue; // a dangling symlink is not a regular file
    }
    out.push(readConfFile(path));
  }
  return out;
}

/** The drop-in reader backed by the file system (DI-1, DI-2). */
export function readDropInDir(dir: string): readonly ConfFile[] {
  return readConfDir(dir, [".conf"], `failed to read plugin config files in ${dir}`);
}

/**
 * Loads network `name` from config directory `dir` (§2.7, with drop-ins §2.9): libcni's
 * `LoadNetworkConf`.
 *
 * @example await loadNetwork("/etc/cni/net.d", "cbr0")
 */
export async function loadNetwork(dir: string, name: string): Promise<NetworkConfigList> {
  return selectNetwork(readConfDir(dir, [".conflist", ".conf", ".json"]), name, readDropInDir, dir);
}

/** Loads one list file with its drop-ins: libcni's `NetworkConfFromFile` (DI-1..DI-3). */
export async function loadConfListFile(path: string): Promise<NetworkConfigList> {
  return confListFromFile(readConfFile(path), readDropInDir);
}

/**
 * Picks the default network of `dir` as kubelet does; throws `no networks found in <dir>`
 * when there is no config file and `no valid networks found in <dir>` when none is valid.
 */
export async function loadDefaultNetwork(dir: string): Promise<DefaultNetworkPick & { network: NetworkConfigList }> {
  const files = readConfDir(dir, [".conf", ".conflist", ".json"]);
  if (files.length === 0) throw new CniError(ErrorCode.InvalidNetworkConfig, `no networks found in ${dir}`);
  const pick = defaultNetwork(files, readDropInDir);
  if (pick.network === undefined) {
    const why = pick.warnings.length > 0 ? `; ${pick.warnings.join("; ")}` : "";
    throw new CniError(ErrorCode.InvalidNetworkConfig, `no valid networks found in ${dir}`, why.slice(2));
  }
  return { network: pick.network, warnings: pick.warnings };
}
