/**
 * The file-system side of `cni leaks`: the networks of a config directory, each one's
 * cached attachments (with their cached addresses) and host-local reservations. It only
 * reads: unlike the disk store it creates no directory and no lock file.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { defaultNetworkCandidates, loadNetwork, readConfDir, readDropInDir } from "@tscni/config";
import type { NetworkConfigList } from "@tscni/config";
import { DEFAULT_DATA_DIR, parseHolder } from "@tscni/ipam";
import { escapeForReport, isSoundHolder } from "@tscni/ipam/damage";
import { cacheFileName, decodeCachedResult } from "@tscni/runtime";
import type { NetworkAttachment, UnreadableRecord } from "@tscni/runtime";
import { formatIP, parseIP } from "@tscni/spec/ipnet";
import type { CachedAttachment, HostLocalReservation, NetworkState, UnknownAttachment } from "./find.ts";

/** The networks of `dir` in the order kubelet considers their files (each name once, as `loadNetwork` picks it), and the warnings of files that do not parse. */
export async function networksIn(dir: string): Promise<{ lists: NetworkConfigList[]; warnings: string[] }> {
  const names: string[] = [];
  const warnings: string[] = [];
  for (const c of defaultNetworkCandidates(readConfDir(dir, [".conflist", ".conf", ".json"]), readDropInDir)) {
    if (c.network === undefined) warnings.push(c.warning);
    else if (!names.includes(c.network.name)) names.push(c.network.name);
  }
  const lists: NetworkConfigList[] = [];
  for (const name of names) lists.push(await loadNetwork(dir, name));
  return { lists, warnings };
}

/** The host-local data dirs a list uses: of each plugin that is host-local or whose IPAM is. */
export function hostLocalDataDirs(list: NetworkConfigList): string[] {
  const dirs: string[] = [];
  for (const { network } of list.plugins) {
    const ipam = network.ipam;
    if (network.type !== "host-local" && ipam?.type !== "host-local") continue;
    const dataDir = typeof ipam?.dataDir === "string" && ipam.dataDir !== "" ? ipam.dataDir : DEFAULT_DATA_DIR;
    if (!dirs.includes(dataDir)) dirs.push(dataDir);
  }
  return dirs;
}

/** The reservation files of `<dataDir>/<network>/` (names that parse as an IP); none when the directory is missing. */
export function readReservations(dataDir: string, network: string): HostLocalReservation[] {
  const dir = join(dataDir, network);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: HostLocalReservation[] = [];
  for (const name of names.sort()) {
    const ip = parseIP(name);
    if (ip === undefined) continue;
    let content: string;
    try {
      content = readFileSync(join(dir, name), "utf8");
    } catch {
      continue; // released while we looked
    }
    if (!isSoundHolder(content)) {
      out.push({ ip: formatIP(ip), id: "", dir, damaged: true, content: escapeForReport(content) });
      continue;
    }
    const holder = parseHolder(content);
    out.push({
      ip: formatIP(ip),
      id: holder.id,
      ...(holder.ifname !== undefined ? { ifname: holder.ifname } : {}),
      dir,
    });
  }
  return out;
}

/** The canonical IPs of an attachment's cached result; none when the record cannot be read or decoded. */
export function cachedAddresses(cacheDir: string, a: NetworkAttachment): string[] {
  try {
    const text = readFileSync(join(cacheDir, "results", cacheFileName(a.network, a)), "utf8");
    const result = decodeCachedResult(text, "1.1.0") as { ips?: readonly { address: string }[] };
    const ips = (result.ips ?? []).map((i) => parseIP(i.address.split("/")[0] ?? ""));
    return ips.filter((ip) => ip !== undefined).map(formatIP);
  } catch {
    return [];
  }
}

/** Every (containerID, ifName) a cache file name `<net>-<cid>-<if>` of `network` may stand for (CACHE-8: names are ambiguous). */
export function candidatesOf(network: string, fileName: string): { containerID: string; ifName: string }[] {
  if (!fileName.startsWith(`${network}-`)) return [];
  const rest = fileName.slice(network.length + 1);
  const out: { containerID: string; ifName: string }[] = [];
  for (let i = rest.indexOf("-"); i > 0 && i < rest.length - 1; i = rest.indexOf("-", i + 1)) {
    out.push({ containerID: rest.slice(0, i), ifName: rest.slice(i + 1) });
  }
  return out;
}

/** The unreadable cache records that may belong to `network`. */
export function unknownAttachments(
  network: string,
  cacheDir: string,
  records: readonly UnreadableRecord[],
): UnknownAttachment[] {
  return records
    .map((r) => ({
      file: join(cacheDir, "results", escapeForReport(r.name, 200)),
      reason: r.reason,
      candidates: candidatesOf(network, r.name),
    }))
    .filter((u) => u.candidates.length > 0);
}

/** What the cache and host-local's stores hold for `list`, given all cached attachments and the unreadable records. */
export function networkState(
  list: NetworkConfigList,
  cacheDir: string,
  cached: readonly NetworkAttachment[],
  unreadable: readonly UnreadableRecord[] = [],
): NetworkState {
  const dataDirs = hostLocalDataDirs(list);
  const attachments: CachedAttachment[] = cached
    .filter((a) => a.network === list.name)
    .map((a) => ({
      containerID: a.containerID,
      ifName: a.ifName,
      netns: a.netns,
      addresses: dataDirs.length > 0 ? cachedAddresses(cacheDir, a) : [],
    }));
  return {
    name: list.name,
    usesHostLocal: dataDirs.length > 0,
    attachments,
    reservations: dataDirs.flatMap((d) => readReservations(d, list.name)),
    unknown: unknownAttachments(list.name, cacheDir, unreadable),
  };
}
