/**
 * `cni daemon`: the long-running CNI server the `cni-shim` plugin talks to (BRIEF seed
 * design 3). It serves the node's default network until SIGTERM or SIGINT.
 */
import type { DaemonLimits } from "@tscni/server";
import type { CommandIO, Verb } from "../io.ts";

const HELP = `usage: cni daemon [--socket PATH] [--conf-dir DIR] [--bin-dir DIR]... [--cache-dir DIR] [limits]

Serve CNI requests forwarded by the cni-shim plugin over HTTP on a unix socket (mode
0600). Each request runs against the default network of the config dir (the first
valid .conf, .conflist or .json file by name whose plugins are installed), which is
re-read every 5 seconds and on every STATUS. Our own plugins run inside the daemon
(TSCNI_IN_PROCESS=0: each in its own process). Calls for different containers run
side by side, calls for the same container one at a time, GC alone. On SIGTERM or
SIGINT it drains: calls in flight finish, new ones get code 11, then it stops.
GET /healthz, /readyz and /metrics (Prometheus text) on the same socket. Logs are
JSON lines on stderr.

  --socket PATH      the socket (default $TSCNI_SOCKET, else /run/tscni/tscni.sock)
  --conf-dir DIR     config dir (default /etc/cni/net.d)
  --bin-dir DIR      plugin dir, repeatable or ':'-separated (default /opt/cni/bin);
                     /opt/<type>/bin of the network's first plugin is searched first
  --cache-dir DIR    result cache dir (default /var/lib/cni)

limits (a request over one is answered with a CNI error and HTTP 413, 408 or 503):
  --max-body BYTES        request body cap (default 1048576)
  --header-timeout MS     time to send the headers (default 5000)
  --body-timeout MS       time to send the body (default 10000)
  --max-connections N     open connections (default 512)
  --max-pending-headers N of them still sending headers; past it a new one closes
                          the oldest (408) once that is a second old (default 128)
  --max-concurrent N      calls running at once, more wait in a queue (default 32)
  --max-queued N          calls waiting (default 512)

Point the shim at the socket with "socketPath" in its config or $TSCNI_SOCKET.
`;

/** The command line of `cni daemon`, parsed. */
export interface DaemonArgs {
  socket?: string;
  confDir?: string;
  binDirs: string[];
  cacheDir?: string;
  limits?: Partial<DaemonLimits>;
}

const FLAGS: Readonly<Record<string, "socket" | "confDir" | "binDirs" | "cacheDir">> = {
  "--socket": "socket",
  "--conf-dir": "confDir",
  "--bin-dir": "binDirs",
  "--cache-dir": "cacheDir",
};

const LIMIT_FLAGS: Readonly<Record<string, keyof DaemonLimits>> = {
  "--max-body": "maxBodyBytes",
  "--header-timeout": "headerTimeoutMs",
  "--body-timeout": "bodyTimeoutMs",
  "--max-connections": "maxConnections",
  "--max-pending-headers": "maxPendingHeaders",
  "--max-concurrent": "maxConcurrent",
  "--max-queued": "maxQueued",
};

/** Parses argv (`--flag value` or `--flag=value`); returns a usage error message instead of throwing. */
export function parseDaemonArgs(argv: readonly string[]): DaemonArgs | string {
  const out: DaemonArgs = { binDirs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const eq = arg.indexOf("=");
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const key = FLAGS[flag];
    const limit = LIMIT_FLAGS[flag];
    if (key === undefined && limit === undefined)
      return arg.startsWith("-") ? `unknown option "${arg}"` : `unexpected argument "${arg}"`;
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === "") return `option "${flag}" needs a value`;
    if (limit !== undefined) {
      if (!/^[1-9]\d{0,11}$/.test(value)) return `option "${flag}" needs a positive integer, not "${value}"`;
      out.limits = { ...out.limits, [limit]: Number(value) };
      continue;
    }
    if (key === undefined) continue;
    if (key === "binDirs") out.binDirs.push(...value.split(":").filter((d) => d !== ""));
    else out[key] = value;
  }
  return out;
}

/** Runs the daemon until `stop` settles; returns the exit status. */
export async function serveDaemon(args: DaemonArgs, io: CommandIO, stop: Promise<unknown>): Promise<number> {
  const [{ PodNetworkManager }, { DEFAULT_SOCKET_PATH, startDaemon }, { withInProcessPlugins }, { defaultExec }] =
    await Promise.all([
      import("@tscni/runtime"),
      import("@tscni/server"),
      import("../in-process.ts"),
      import("@tscni/invoke"),
    ]);
  const { logLine } = await import("@tscni/server");
  // The daemon's own lines are JSON already; the verb's are made so here.
  const log = (line: string): void => io.stderr(`${line.startsWith("{") ? line : logLine("info", line)}\n`);
  const manager = new PodNetworkManager({
    ...(args.confDir !== undefined ? { confDir: args.confDir } : {}),
    ...(args.binDirs.length > 0 ? { binDirs: args.binDirs } : {}),
    ...(args.cacheDir !== undefined ? { cacheDir: args.cacheDir } : {}),
    // The whole chain runs in process when its plugins are ours (issue 11 item 2).
    exec: withInProcessPlugins(defaultExec(), io.env),
    warn: (w) => log(`warning: ${w}`),
  });
  const socketPath =
    args.socket ??
    (io.env.TSCNI_SOCKET !== undefined && io.env.TSCNI_SOCKET !== "" ? io.env.TSCNI_SOCKET : DEFAULT_SOCKET_PATH);
  let daemon;
  try {
    daemon = await startDaemon({
      socketPath,
      manager,
      log,
      ...(args.limits !== undefined ? { limits: args.limits } : {}),
    });
  } catch (err) {
    log(err instanceof Error ? err.message : String(err));
    return 1;
  }
  const network = manager.defaultNetwork;
  log(
    `listening on ${socketPath}${network !== undefined ? ` (default network ${JSON.stringify(network.list.name)})` : ""}`,
  );
  await stop;
  log("draining: calls in flight finish, new ones get code 11");
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
