/**
 * Runs a plugin binary of `dir` inside the test's host namespace as a runtime would: the
 * CNI variables in the environment (CNI_IFNAME eth0 unless given), the config on stdin. The
 * chained plugins' compat suites (bandwidth, portmap) and those of _host-and-container.ts
 * drive the reference and ours through it.
 */
import { join } from "node:path";

/** What the plugin answered. */
export interface PluginRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `<dir>/<plugin>` in `host` with `command` on `netns` and `config`. */
export async function runInHost(
  dir: string,
  plugin: string,
  host: string,
  run: { command: string; containerID: string; netns: string; ifName?: string },
  config: object,
): Promise<PluginRun> {
  const env = {
    PATH: process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin",
    CNI_COMMAND: run.command,
    CNI_CONTAINERID: run.containerID,
    CNI_NETNS: run.netns,
    CNI_IFNAME: run.ifName ?? "eth0",
    CNI_PATH: dir,
  };
  const proc = Bun.spawn(["ip", "netns", "exec", host, join(dir, plugin)], {
    env,
    stdin: new TextEncoder().encode(JSON.stringify(config)),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}
