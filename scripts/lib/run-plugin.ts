/**
 * One plugin call as a runtime makes it (SPEC §1.1): the CNI variables in the
 * environment, the config as JSON on stdin, stdout, stderr and the exit code collected.
 * Inside a namespace by name (`ip netns exec`) when `host` is given, for suites whose
 * host is a throwaway namespace; in the caller's own namespace otherwise.
 */

/** What the plugin answered. */
export interface PluginRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CNI variables of one call; CNI_IFNAME defaults to eth0, CNI_ARGS to empty. */
export interface CniCall {
  command: string;
  containerID: string;
  netns: string;
  ifName?: string;
  args?: string;
  /** CNI_PATH. */
  path: string;
}

/** Runs the plugin binary `bin` for `call` with `config`; `env` adds to (or overrides) the variables, PATH included. */
export async function runPlugin(
  bin: string,
  call: CniCall,
  config: unknown,
  opts: { host?: string; env?: Record<string, string> } = {},
): Promise<PluginRun> {
  const env = {
    PATH: process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin",
    CNI_COMMAND: call.command,
    CNI_CONTAINERID: call.containerID,
    CNI_NETNS: call.netns,
    CNI_IFNAME: call.ifName ?? "eth0",
    CNI_ARGS: call.args ?? "",
    CNI_PATH: call.path,
    ...opts.env,
  };
  const proc = Bun.spawn(opts.host === undefined ? [bin] : ["ip", "netns", "exec", opts.host, bin], {
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
