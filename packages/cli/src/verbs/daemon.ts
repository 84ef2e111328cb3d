/**
 * `cni daemon`: the long-running CNI server the `cni-shim` plugin talks to (BRIEF seed
 * design 3). It serves the node's default network until SIGTERM or SIGINT.
 */
import type { CommandIO, Verb } from "../io.ts";

const HELP = `usage: cni daemon [--socket PATH] [--conf-dir DIR] [--bin-dir DIR]... [--cache-dir DIR]

Serve CNI requests forwarded by the cni-shim plugin over HTTP on a unix socket (mode
0600). Each request runs against the default network of the config dir (the first
valid .conf, .conflist or .json file by name whose plugins are installed), which is
re-read every 5 seconds and on every STATUS. Stops on SIGTERM or SIGINT.

  --socket PATH      the socket (default $TSCNI_SOCKET, else /run/tscni/tscni.sock)
  --conf-dir DIR     config dir (default /etc/cni/net.d)
  --bin-dir DIR      plugin dir, repeatable or ':'-separated (default /opt/cni/bin);
                     /opt/<type>/bin of the network's first plugin is searched first
  --cache-dir DIR    result cache dir (default /var/lib/cni)

Point the shim at the socket with "socketPath" in its config or $TSCNI_SOCKET.
`;

/** The command line of `cni daemon`, parsed. */
export interface DaemonArgs {
  socket?: string;
  confDir?: string;
  binDirs: string[];
  cacheDir?: string;
}

const FLAGS: Readonly<Record<string, "socket" | "confDir" | "binDirs" | "cacheDir">> = {
  "--socket": "socket",
  "--conf-dir": "confDir",
  "--bin-dir": "binDirs",
  "--cache-dir": "cacheDir",
};

/** Parses argv (`--flag value` or `--flag=value`); returns a usage error message instead of throwing. */
export function parseDaemonArgs(argv: readonly string[]): DaemonArgs | string {
  const out: DaemonArgs = { binDirs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const eq = arg.indexOf("=");
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const key = FLAGS[flag];
    if (key === undefined) return arg.startsWith("-") ? `unknown option "${arg}"` : `unexpected argument "${arg}"`;
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === "") return `option "${flag}" needs a value`;
    if (key === "binDirs") out.binDirs.push(...value.split(":").filter((d) => d !== ""));
    else out[key] = value;
  }
  return out;
}

/** Runs the daemon until `stop` settles; returns the exit status. */
export async function serveDaemon(args: DaemonArgs, io: CommandIO, stop: Promise<unknown>): Promise<number> {
  const [{ PodNetworkManager }, { DEFAULT_SOCKET_PATH, startDaemon }, { withInProcessPlugins }, { defaultExec }] = await Promise.all([
    import("@tscni/runtime"),
    import("@tscni/server"),
    import("../in-process.ts"),
    import("@tscni/invoke"),
  ]);
  const log = (line: string): void => io.stderr(`cni daemon: ${line}\n`);
  const manager = new PodNetworkManager({
    ...(args.confDir !== undefined ? { confDir: args.confDir } : {}),
    ...(args.binDirs.length > 0 ? { binDirs: args.binDirs } : {}),
    ...(args.cacheDir !== undefined ? { cacheDir: args.cacheDir } : {}),
    // The whole chain runs in process when its plugins are ours (issue 11 item 2).
    exec: withInProcessPlugins(defaultExec(), io.env),
    warn: (w) => log(`warning: ${w}`),
  });
  const socketPath = args.socket ?? (io.env.TSCNI_SOCKET !== undefined && io.env.TSCNI_SOCKET !== "" ? io.env.TSCNI_SOCKET : DEFAULT_SOCKET_PATH);
  let daemon;
  try {
    daemon = await startDaemon({ socketPath, manager, log });
  } catch (err) {
    log(err instanceof Error ? err.message : String(err));
    return 1;
  }
  const network = manager.defaultNetwork;
  log(`listening on ${socketPath}${network !== undefined ? ` (default network ${JSON.stringify(network.list.name)})` : ""}`);
  await stop;
  await daemon.stop();
  log("stopped");
  return 0;
}

async function run(io: CommandIO): Promise<number> {
  const args = parseDaemonArgs(io.argv);
  if (typeof args === "string") {
    io.stderr(`cni daemon: ${args}\n\n${HELP}`);
    return 2;
  }
  const stop = new Promise<void>((resolve) => {
    process.once("SIGTERM", () => resolve());
    process.once("SIGINT", () => resolve());
  });
  return serveDaemon(args, io, stop);
}

/** The `daemon` verb. */
export const verb: Verb = { summary: "serve CNI requests from the cni-shim plugin on a unix socket", help: HELP, run };
