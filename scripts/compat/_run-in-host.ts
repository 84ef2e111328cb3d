/**
 * Runs a plugin binary of `dir` inside the test's host namespace as a runtime would
 * (scripts/lib/run-plugin.ts): CNI_IFNAME eth0 unless given, CNI_PATH `dir`. The chained
 * plugins' compat suites (bandwidth, portmap) and those of _host-and-container.ts drive
 * the reference and ours through it.
 */
import { join } from "node:path";
import { runPlugin, type PluginRun } from "../lib/run-plugin.ts";

export type { PluginRun } from "../lib/run-plugin.ts";

/** Runs `<dir>/<plugin>` in `host` with `command` on `netns` and `config`. */
export function runInHost(
  dir: string,
  plugin: string,
  host: string,
  run: { command: string; containerID: string; netns: string; ifName?: string },
  config: object,
): Promise<PluginRun> {
  return runPlugin(join(dir, plugin), { ...run, path: dir }, config, { host });
}
