/**
 * The long-running CNI daemon (the Multus thick plugin's server, Contiv's CNI proxy): HTTP
 * on a unix socket only root can use (mode 0600), one endpoint, the node's pod-network
 * manager behind it.
 */
import { chmodSync, lstatSync, mkdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import type { PodNetworkManager } from "@tscni/runtime";
import { CniError, ErrorCode } from "@tscni/spec";
import { CommandGate } from "./gate.ts";
import { handleHttp } from "./http.ts";

/** kubelet re-reads its config dir every five seconds. */
export const DEFAULT_SYNC_INTERVAL_MS = 5_000;

/** What a daemon serves and where. */
export interface DaemonOptions {
  readonly socketPath: string;
  readonly manager: PodNetworkManager;
  /** How often the config dir is re-read; default 5 s, 0 for never (STATUS always re-reads). */
  readonly syncIntervalMs?: number;
  /** One line per request and per config warning. */
  readonly log?: (line: string) => void;
}

/** A running daemon. */
export interface CniDaemon {
  readonly socketPath: string;
  /** Stops serving and removes the socket file. */
  stop(): Promise<void>;
}

function errno(err: unknown): string | undefined {
  return typeof err === "object" && err !== null && "code" in err ? String((err as { code: unknown }).code) : undefined;
}

/** Makes room for the socket: its directory (0700 when created), and no stale socket file. */
function prepareSocketPath(socketPath: string): void {
  mkdirSync(dirname(socketPath), { recursive: true, mode: 0o700 });
  try {
    if (!lstatSync(socketPath).isSocket()) {
      throw new CniError(ErrorCode.IOFailure, `refusing to replace ${JSON.stringify(socketPath)}: it is not a socket`);
    }
    rmSync(socketPath); // left behind by a daemon that died
  } catch (err) {
    if (errno(err) !== "ENOENT") throw err;
  }
}

/**
 * Starts the daemon: reads the config dir once (a missing network is logged, not fatal:
 * requests fail with "not initialized" until one appears), then listens.
 *
 * @example const daemon = await startDaemon({ socketPath: "/run/tscni/tscni.sock", manager });
 */
export async function startDaemon(options: DaemonOptions): Promise<CniDaemon> {
  const { socketPath, manager, log } = options;
  const sync = async (): Promise<void> => {
    const scan = await manager.sync();
    if (scan.network === undefined) log?.(`network plugin not initialized: ${scan.reason ?? "no valid network"}`);
  };
  await sync();
  prepareSocketPath(socketPath);
  // The socket is created under a umask that leaves it to its owner, so it is never open
  // to others, even between bind and chmod.
  const gate = new CommandGate();
  const umask = process.umask(0o177);
  let server: ReturnType<typeof Bun.serve>;
  try {
    server = Bun.serve({ unix: socketPath, fetch: (req) => handleHttp(req, { manager, gate, ...(log !== undefined ? { log } : {}) }) });
  } finally {
    process.umask(umask);
  }
  chmodSync(socketPath, 0o600);
  const every = options.syncIntervalMs ?? DEFAULT_SYNC_INTERVAL_MS;
  const timer = every > 0 ? setInterval(() => void sync().catch((err: unknown) => log?.(`re-reading the config dir failed: ${String(err)}`)), every) : undefined;
  timer?.unref();
  return {
    socketPath,
    stop: async () => {
      if (timer !== undefined) clearInterval(timer);
      await server.stop(true);
      rmSync(socketPath, { force: true });
    },
  };
}
