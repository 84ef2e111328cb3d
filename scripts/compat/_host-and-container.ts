/**
 * The namespaces of a compat suite that runs a plugin from inside a host namespace of
 * its own, as a runtime would (host-device, bridge macspoofchk): one namespace plays the
 * host, one the container, with a scratch directory for IPAM. Made before the suite's
 * tests and removed after them, even when one fails (common brief: never the machine's
 * root namespace).
 */
import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NetnsSet } from "../lib/netns.ts";
import { OUR_BIN_DIR, REFERENCE_PLUGINS } from "./_reference.ts";
import { runInHost, type PluginRun } from "./_run-in-host.ts";

/** Whose plugin a call runs. */
export type Who = "ours" | "reference";

/** The suite's namespaces (names, for `ip -n`) and scratch directory, set once `beforeAll` has run. */
export interface HostAndContainer {
  host: string;
  container: string;
  dir: string;
  /** Runs `who`'s `plugin` in the host namespace on the container (CNI_IFNAME `ifName`, default eth0). */
  call(
    who: Who,
    plugin: string,
    run: { command: string; containerID: string; ifName?: string },
    config: object,
  ): Promise<PluginRun>;
}

/** Registers the set-up (`prefix` names the namespaces) in the enclosing describe; `setUp` runs after it, in the host. */
export function hostAndContainer(prefix: string, setUp: (host: string) => void = () => {}): HostAndContainer {
  let set: NetnsSet | undefined;
  const pair: HostAndContainer = {
    host: "",
    container: "",
    dir: "",
    call: (who, plugin, run, config) =>
      runInHost(
        who === "ours" ? OUR_BIN_DIR : REFERENCE_PLUGINS,
        plugin,
        pair.host,
        { ...run, netns: NetnsSet.path(pair.container) },
        config,
      ),
  };
  beforeAll(async () => {
    set = new NetnsSet(prefix);
    pair.host = await set.add("host");
    pair.container = await set.add("c0");
    pair.dir = mkdtempSync(join(tmpdir(), `tscni-${prefix}-`));
    setUp(pair.host);
  });
  afterAll(async () => {
    await set?.cleanup();
    if (pair.dir !== "") rmSync(pair.dir, { recursive: true, force: true });
  });
  return pair;
}
