import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { shimMain } from "@tscni/server";
import { parseDaemonArgs, serveDaemon } from "./daemon.ts";

describe("parseDaemonArgs", () => {
  test("reads the socket, the config, bin and cache dirs in both flag forms", () => {
    expect(
      parseDaemonArgs([
        "--socket",
        "/run/x.sock",
        "--conf-dir=/etc/n",
        "--bin-dir",
        "/a:/b",
        "--bin-dir=/c",
        "--cache-dir",
        "/var/c",
      ]),
    ).toEqual({
      socket: "/run/x.sock",
      confDir: "/etc/n",
      binDirs: ["/a", "/b", "/c"],
      cacheDir: "/var/c",
    });
  });

  test("reads the limits, the budget of connections still sending headers among them", () => {
    expect(parseDaemonArgs(["--max-connections", "64", "--max-pending-headers=16"])).toEqual({
      binDirs: [],
      limits: { maxConnections: 64, maxPendingHeaders: 16 },
    });
  });

  test("returns a usage message for an unknown flag, a stray argument or a missing value", () => {
    expect(parseDaemonArgs(["--port", "1"])).toBe('unknown option "--port"');
    expect(parseDaemonArgs(["serve"])).toBe('unexpected argument "serve"');
    expect(parseDaemonArgs(["--socket"])).toBe('option "--socket" needs a value');
  });
});

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("cni daemon", () => {
  test("serves the shim on its socket (mode 0600) until told to stop, then removes the socket", async () => {
    dir = mkdtempSync(join(tmpdir(), "tscni-daemon-"));
    const socket = join(dir, "d.sock");
    let err = "";
    const io = {
      argv: [],
      env: {},
      readStdin: async () => new Uint8Array(),
      stdout: () => {},
      stderr: (t: string) => void (err += t),
    };
    let stop = (): void => {};
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const running = serveDaemon(
      { socket, confDir: join(dir, "net.d"), binDirs: [join(dir, "bin")], cacheDir: join(dir, "cache") },
      io,
      stopped,
    );
    while (!existsSync(socket)) await Bun.sleep(5);
    expect(statSync(socket).mode & 0o777).toBe(0o600);

    let out = "";
    const stdin = new TextEncoder().encode(JSON.stringify({ cniVersion: "1.1.0", socketPath: socket }));
    const code = await shimMain({
      argv: [],
      env: { CNI_COMMAND: "STATUS" },
      readStdin: async () => stdin,
      stdout: (t) => void (out += t),
      stderr: () => {},
    });
    expect(code).toBe(1);
    expect(JSON.parse(out)).toMatchObject({
      code: 50,
      msg: `network plugin not initialized: no networks found in ${join(dir, "net.d")}`,
    });

    stop();
    expect(await running).toBe(0);
    expect(existsSync(socket)).toBe(false);
    expect(err).toContain(`listening on ${socket}`);
  });
});
