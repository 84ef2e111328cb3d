/**
 * The host-local IPAM plugin (SPEC.md §8.3): addresses from range sets, reservations in
 * `<dataDir>/<network>/` shared with the reference's layout and lock. Besides the
 * reference's ADD, DEL and CHECK it implements GC (§1.7; upstream's is still an open PR)
 * and STATUS (§1.5). The handlers are plain functions, so bridge and ptp run them in
 * process; `main` runs them through the plugin framework.
 */
import { accessSync, constants, statSync } from "@tscni/kernel/fs";
import { join } from "@tscni/spec/path";
import {
  type Store,
  allocate,
  allocationAddress,
  checkCapacity,
  collectGarbage,
  loadIPAMConfig,
  parseResolvConf,
  release,
} from "@tscni/ipam";
import { openDiskStore } from "@tscni/ipam/disk";
import { formatIP } from "@tscni/spec/ipnet";
import { isOwnNetns, pluginMain } from "@tscni/skel";
import type { CmdArgs, PluginDefinition, PluginHandlers, PluginIO } from "@tscni/skel";
import { CniError, ErrorCode, VERSIONS, convertResult } from "@tscni/spec";
import type { DNS, Result, Result100 } from "@tscni/spec";
import { envRequestedIP, loadConfig, loadLocation, validAttachments } from "./config.ts";

/** Opens the store of a network; the disk store in production, a memory store in tests. */
export type OpenStore = (dataDir: string, network: string) => Store;

/** host-local's handlers, with ADD returning the abbreviated IPAM result (RI-1). */
export interface HostLocal extends PluginHandlers {
  add(a: CmdArgs): Promise<Result>;
}

async function withStore<T>(
  open: OpenStore,
  dataDir: string,
  network: string,
  fn: (s: Store) => Promise<T>,
): Promise<T> {
  const store = open(dataDir, network);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

async function readDns(path: string): Promise<DNS> {
  if (path === "") return {};
  // A resolvConf that cannot be read fails ADD, as upstream (§8.3), in Go's words.
  try {
    return parseResolvConf(await Bun.file(path).text());
  } catch (err) {
    const code = (err as { code?: string }).code;
    const why = { ENOENT: "no such file or directory", EACCES: "permission denied", EISDIR: "is a directory" }[
      code ?? ""
    ];
    if (why === undefined) throw err;
    throw new Error(`${code === "EISDIR" ? "read" : "open"} ${path}: ${why}`);
  }
}

/**
 * The handlers over a store opener.
 *
 * @example await hostLocalHandlers((dir, net) => new MemoryStore()).add(args)
 */
export function hostLocalHandlers(open: OpenStore): HostLocal {
  return {
    /** One address per range set; the result in the config's version, no interfaces (RI-1, ADD-2). */
    async add(a) {
      const conf = loadConfig(a);
      const dns = await readDns(conf.resolvConf);
      const got = await withStore(open, conf.dataDir, conf.name, (s) => allocate(conf, s, a.containerID, a.ifName));
      if (!got.ok) throw new Error(got.error);
      const result: Result100 = {
        cniVersion: "1.1.0",
        ips: got.value.map((x) => ({ address: allocationAddress(x), gateway: formatIP(x.gateway) })),
        ...(conf.routes.length > 0 ? { routes: [...conf.routes] } : {}),
        ...(Object.keys(dns).length > 0 ? { dns } : {}),
      };
      return convertResult(result, conf.cniVersion);
    },

    /** Releases the attachment's addresses; nothing to release is success (DEL-3), a bad config is not (CA-6). */
    async del(a) {
      const conf = loadConfig(a);
      await withStore(open, conf.dataDir, conf.name, (s) => release(s, a.containerID, a.ifName));
    },

    /** Fails unless the attachment holds an address in the store (CHK-3). */
    async check(a) {
      const conf = loadConfig(a);
      const found = await withStore(open, conf.dataDir, conf.name, async (s) => {
        await s.lock();
        try {
          return await s.findByID(a.containerID, a.ifName);
        } finally {
          await s.unlock();
        }
      });
      if (!found) throw new Error(`host-local: Failed to find address added by container ${a.containerID}`);
    },

    /** Releases reservations outside `cni.dev/valid-attachments`, reporting every failure (GC-1, GC-3). */
    async gc(a) {
      const valid = validAttachments(a.config);
      const where = loadLocation(a);
      const report = await withStore(open, where.dataDir, where.name, (s) => collectGarbage(s, valid));
      if (report.errors.length > 0) throw new Error(report.errors.join("; "));
    },

    /** Code 50 when the data dir is unusable or some range set has no free address (ST-1, ST-2). */
    async status(a) {
      const where = loadLocation(a);
      const dir = join(where.dataDir, where.name);
      const notReady = (msg: string): CniError => new CniError(ErrorCode.PluginNotAvailable, msg);
      let store: Store;
      try {
        store = open(where.dataDir, where.name);
        accessSync(dir, constants.W_OK);
      } catch (err) {
        throw notReady(`host-local data dir "${dir}" is unusable: ${err instanceof Error ? err.message : String(err)}`);
      }
      try {
        // Ranges may come only from the ipRanges capability, absent on STATUS (CAP-2).
        const conf = loadIPAMConfig(a.config, envRequestedIP(a.args));
        if (!conf.ok) return;
        const capacity = await checkCapacity(conf.value, store);
        if (!capacity.ok) throw notReady(capacity.error);
      } finally {
        await store.close();
      }
    },
  };
}

/** The handlers over the disk store: what bridge and ptp call in process. */
export const hostLocal: HostLocal = hostLocalHandlers(openDiskStore);

/** The host-local plugin: every spec version, all five commands. */
export const definition: PluginDefinition = {
  name: "host-local",
  about: "CNI host-local IPAM plugin (tscni)",
  versions: VERSIONS,
  handlers: hostLocal,
};

/** The binary's entry for `host-local`: the own-netns check through the libc stat (no node:fs). */
export async function main(io: PluginIO): Promise<number> {
  return pluginMain(definition, io, { sameNetns: (path) => isOwnNetns(path, statSync) });
}
