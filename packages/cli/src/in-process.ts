/**
 * The in-process plugin port of the runtime (issue 11 item 1): the binary's own plugin
 * table, run the way `main` runs a plugin invoked through its link. The runtime verbs and
 * the daemon wrap their `Exec` in it, so a chain of our plugins runs without a process.
 */
import { InProcessExec, type InProcessIO, type InProcessPlugins } from "@tscni/runtime";
import type { Exec } from "@tscni/invoke";
import { PLUGIN_VERSIONS, versionReply } from "./plugin-versions.ts";
import { PLUGINS } from "./plugins.ts";

/**
 * Runs plugin `name` with `io` exactly as the binary does under that name: VERSION from
 * static data, anything else through the plugin's own `main` (and so its skel).
 *
 * @example await runPlugin("bridge", io) // 0 or 1, output on io.stdout
 */
export async function runPlugin(name: string, io: InProcessIO): Promise<number> {
  const load = PLUGINS[name];
  if (load === undefined) throw new Error(`no plugin "${name}" in this binary`);
  const versions = PLUGIN_VERSIONS[name];
  if (versions !== undefined && io.env.CNI_COMMAND === "VERSION") {
    io.stdout(versionReply(versions));
    return 0;
  }
  return (await load()).main(io);
}

/** This binary's plugins as the runtime's in-process port; `selfPath` defaults to this executable. */
export function inProcessPlugins(selfPath: string = process.execPath): InProcessPlugins {
  return { selfPath, names: new Set(Object.keys(PLUGINS)), run: runPlugin };
}

/**
 * `exec` wrapped so our own plugins run in process, unless `TSCNI_IN_PROCESS=0` asks
 * for a process per plugin (the reference's behaviour, kept for comparison and debugging).
 */
export function withInProcessPlugins(exec: Exec, env: Readonly<Record<string, string | undefined>>): Exec {
  return env.TSCNI_IN_PROCESS === "0" ? exec : new InProcessExec(exec, inProcessPlugins());
}
