/**
 * `cni dhcp daemon` and `dhcp daemon` (the reference's main.go daemon mode): its flags,
 * Go net/rpc on the unix socket (`/run/cni/dhcp.sock`, `rpc.ts`), the pid file, resuming the
 * persisted leases, and SIGTERM/SIGINT, which stop serving and keep the leases' records
 * for the next run (they stay valid on the DHCP server until they expire).
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute } from "node:path";
import { RESEND } from "./backoff.ts";
import { parseGoDuration } from "./duration.ts";
import { systemClock } from "./lease.ts";
import { DhcpService } from "./service.ts";
import { DEFAULT_STATE_DIR } from "./state.ts";
import { openTransport } from "./transport.ts";
import { toGoResult } from "./rpc-result.ts";
import { Empty, Result } from "./rpc-types.ts";
import { serveRpc } from "./rpc.ts";
import { DEFAULT_SOCKET, METHODS, toDaemonRequest } from "./wire.ts";

/** The daemon's flags, with the reference's names and defaults (plus `-statedir`). */
export interface DaemonFlags {
  pidfile: string;
  hostprefix: string;
  socketpath: string;
  statedir: string;
  broadcast: boolean;
  timeoutMs: number;
  resendMaxMs: number;
  resendTimeoutMs: number;
}

/** The daemon's usage text. */
export const DAEMON_USAGE = `usage: cni dhcp daemon [flags]   (also: dhcp daemon [flags])
  -socketpath PATH     the socket to serve (default ${DEFAULT_SOCKET})
  -pidfile PATH        write the daemon's pid there (absolute path)
  -hostprefix PREFIX   prefix of the host's root for netns paths (the daemon in a container)
  -statedir DIR        where leases are kept across restarts (default ${DEFAULT_STATE_DIR})
  -broadcast           set the broadcast flag in DISCOVER and REQUEST
  -timeout DURATION    wait for each reply, doubled at each of 3 sends (default 10s)
  -resendmax DURATION  longest pause between retries (default 1m2s)
  -resendtimeout DURATION  give up retrying after this (default 3m28s)
`;

/** Parses Go-style flags (`-x v`, `-x=v`, `--x v`); throws on an unknown flag or a bad value. */
export function parseDaemonFlags(argv: readonly string[]): DaemonFlags {
  const f: DaemonFlags = {
    pidfile: "",
    hostprefix: "",
    socketpath: "",
    statedir: DEFAULT_STATE_DIR,
    broadcast: false,
    timeoutMs: 10_000,
    resendMaxMs: RESEND.defaultMaxMs,
    resendTimeoutMs: RESEND.defaultTimeoutMs,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const m = /^--?([a-z]+)(?:=(.*))?$/.exec(arg);
    if (m === null) throw new Error(`unexpected argument ${JSON.stringify(arg)}`);
    const name = m[1] as string;
    if (name === "broadcast") {
      f.broadcast = m[2] === undefined ? true : m[2] === "true" || m[2] === "1";
      continue;
    }
    if (!["pidfile", "hostprefix", "socketpath", "statedir", "timeout", "resendmax", "resendtimeout"].includes(name))
      throw new Error(`flag provided but not defined: -${name}`);
    const value = m[2] ?? argv[++i];
    if (value === undefined) throw new Error(`flag needs an argument: -${name}`);
    if (name === "pidfile" || name === "hostprefix" || name === "socketpath" || name === "statedir") f[name] = value;
    else if (name === "timeout") f.timeoutMs = parseGoDuration(value);
    else if (name === "resendmax") f.resendMaxMs = parseGoDuration(value);
    else if (name === "resendtimeout") f.resendTimeoutMs = parseGoDuration(value);
    else throw new Error(`flag provided but not defined: -${name}`);
  }
  if (f.socketpath === "") f.socketpath = DEFAULT_SOCKET;
  return f;
}

async function live(path: string): Promise<boolean> {
  try {
    const s = await Bun.connect({ unix: path, socket: { data: () => {} } });
    s.end();
    return true;
  } catch {
    return false;
  }
}

/** Runs the daemon until SIGTERM or SIGINT; returns its exit code. */
export async function runDaemon(argv: readonly string[], stderr: (s: string) => void): Promise<number> {
  let f: DaemonFlags;
  try {
    f = parseDaemonFlags(argv);
  } catch (err) {
    stderr(`${(err as Error).message}\n${DAEMON_USAGE}`);
    return 2;
  }
  const log = (msg: string): void => stderr(`${new Date().toISOString()} ${msg}\n`);
  if (f.pidfile !== "") {
    if (!isAbsolute(f.pidfile)) {
      log(`Error writing pidfile ${JSON.stringify(f.pidfile)}: path not absolute`);
      return 1;
    }
    writeFileSync(f.pidfile, String(process.pid), { mode: 0o644 });
  }
  const socket = f.hostprefix + f.socketpath;
  mkdirSync(dirname(socket), { recursive: true, mode: 0o700 });
  if (existsSync(socket)) {
    if (await live(socket)) {
      log(`Error getting listener: listen unix ${socket}: bind: address already in use`);
      return 1;
    }
    rmSync(socket, { force: true }); // a socket left by a daemon that died
  }
  const service = new DhcpService({
    hostPrefix: f.hostprefix,
    broadcast: f.broadcast,
    timeoutMs: f.timeoutMs,
    backoff: { resendMaxMs: f.resendMaxMs, resendTimeoutMs: f.resendTimeoutMs },
    stateDir: f.hostprefix + f.statedir,
    open: openTransport,
    clock: systemClock,
    log,
  });
  const resumed = await service.resume();
  if (resumed > 0) log(`resumed ${resumed} lease(s) from ${f.statedir}`);
  const server = serveRpc(socket, {
    [METHODS.allocate]: { reply: Result, run: async (raw) => toGoResult(await service.allocate(toDaemonRequest(raw))) },
    [METHODS.release]: { reply: Empty, run: async (raw) => (await service.release(toDaemonRequest(raw)), {}) },
  });
  log(`listening on ${socket}`);
  await new Promise<void>((resolve) => {
    process.once("SIGTERM", resolve);
    process.once("SIGINT", resolve);
  });
  server.stop();
  await service.shutdown();
  rmSync(socket, { force: true });
  if (f.pidfile !== "") rmSync(f.pidfile, { force: true });
  return 0;
}
