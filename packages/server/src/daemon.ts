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
import { listenBounded } from "./http-server.ts";
import { KeyedQueue } from "./keyed-queue.ts";
import { Limiter } from "./limiter.ts";
import { daemonLimits, type DaemonLimits } from "./limits.ts";
import { logLine } from "./log.ts";
import { DaemonMetrics } from "./metrics.ts";
import { refusalLogger } from "./refusal-log.ts";

/** kubelet re-reads its config dir every five seconds. */
export const DEFAULT_SYNC_INTERVAL_MS = 5_000;

/** How long the daemon must be idle before it collects garbage. */
const IDLE_GC_MS = 300;

/** What a daemon serves and where. */
export interface DaemonOptions {
  readonly socketPath: string;
  readonly manager: PodNetworkManager;
  /** How often the config dir is re-read; default 5 s, 0 for never (STATUS always re-reads). */
  readonly syncIntervalMs?: number;
  /** One structured (JSON) line per request and per config warning. */
  readonly log?: (line: string) => void;
  /** The bounds; each defaults to {@link DEFAULT_LIMITS}. */
  readonly limits?: Partial<DaemonLimits>;
}

/** A running daemon. */
export interface CniDaemon {
  readonly socketPath: string;
  /** The live counters behind `/metrics`. */
  readonly metrics: DaemonMetrics;
  /**
   * Drains and stops: new calls are refused with code 11 while the calls in flight finish
   * (at most `drainTimeoutMs`), then the socket closes and its file is removed.
   */
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
  const limits = daemonLimits(options.limits);
  const sync = async (): Promise<void> => {
    const scan = await manager.sync();
    if (scan.network === undefined)
      log?.(logLine("warn", `network plugin not initialized: ${scan.reason ?? "no valid network"}`));
  };
  await sync();
  prepareSocketPath(socketPath);
  const metrics = new DaemonMetrics();
  const limiter = new Limiter(limits.maxConcurrent, limits.maxQueued);
  let draining = false;
  // A burst of calls grows the heap; once the daemon has been idle for a moment, a full
  // collection lets the allocator give the pages back, so RSS returns near its idle figure.
  let gcTimer: ReturnType<typeof setTimeout> | undefined;
  const collectWhenIdle = (): void => {
    clearTimeout(gcTimer);
    gcTimer = setTimeout(() => {
      if (limiter.running === 0 && limiter.queued === 0) Bun.gc(true);
    }, IDLE_GC_MS);
    gcTimer.unref();
  };
  const refusalLog = log !== undefined ? refusalLogger(log) : undefined;
  const ctx = {
    manager,
    gate: new CommandGate(),
    keyed: new KeyedQueue(),
    limiter,
    metrics,
    draining: () => draining,
    ...(log !== undefined && refusalLog !== undefined ? { log, refusalLog } : {}),
  };
  // The socket is created under a umask that leaves it to its owner, so it is never open
  // to others, even between bind and chmod.
  const umask = process.umask(0o177);
  let server: ReturnType<typeof listenBounded>;
  try {
    server = listenBounded({
      unix: socketPath,
      limits,
      metrics,
      handle: async (req) => {
        try {
          return await handleHttp(req, ctx);
        } finally {
          collectWhenIdle();
        }
      },
      ...(refusalLog !== undefined ? { onRefuse: refusalLog } : {}),
    });
  } finally {
    process.umask(umask);
  }
  chmodSync(socketPath, 0o600);
  const every = options.syncIntervalMs ?? DEFAULT_SYNC_INTERVAL_MS;
  const timer =
    every > 0
      ? setInterval(
          () =>
            void sync().catch((err: unknown) =>
              log?.(logLine("error", `re-reading the config dir failed: ${String(err)}`)),
            ),
          every,
        )
      : undefined;
  timer?.unref();
  let stopped: Promise<void> | undefined;
  return {
    socketPath,
    metrics,
    stop: () => {
      stopped ??= (async () => {
        draining = true;
        if (timer !== undefined) clearInterval(timer);
        clearTimeout(gcTimer);
        const deadline = Date.now() + limits.drainTimeoutMs;
        while ((limiter.running > 0 || limiter.queued > 0 || ctx.keyed.size > 0) && Date.now() < deadline)
          await Bun.sleep(10);
        server.stop(true);
        rmSync(socketPath, { force: true });
      })();
      return stopped;
    },
  };
}
