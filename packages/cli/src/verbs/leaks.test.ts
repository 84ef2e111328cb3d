import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadNetwork } from "@tscni/config";
import { CniRuntime } from "@tscni/runtime";
import { makeSandbox } from "@tscni/runtime/testing";
import type { Sandbox } from "@tscni/runtime/testing";
import type { CommandIO } from "../io.ts";
import type { Leak } from "../leaks/find.ts";
import { verb } from "./leaks.ts";

const HOST_LOCAL = resolve(import.meta.dir, "../../../plugins/host-local/index.ts");

describe("cni leaks", () => {
  let sb: Sandbox;
  let confDir: string;
  let dataDir: string;
  let out: string;
  let err: string;

  /** Our real host-local, run as a plugin process from source. */
  const installHostLocal = (): void => {
    const path = join(sb.binDir, "host-local");
    writeFileSync(
      path,
      `#!${process.execPath}
import { main } from ${JSON.stringify(HOST_LOCAL)};
process.exitCode = await main({
  env: process.env,
  readStdin: async () => new Uint8Array(await Bun.stdin.arrayBuffer()),
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
});
`,
    );
    chmodSync(path, 0o755);
  };

  beforeEach(() => {
    sb = makeSandbox();
    installHostLocal();
    confDir = join(sb.dir, "net.d");
    dataDir = join(sb.dir, "ipam");
    mkdirSync(confDir);
    mkdirSync(join(sb.dir, "netns"));
    const ipam = { type: "host-local", subnet: "198.18.0.0/24", dataDir };
    writeFileSync(
      join(confDir, "10-net1.conflist"),
      JSON.stringify({ cniVersion: "1.1.0", name: "net1", plugins: [{ type: "host-local", ipam }] }),
    );
  });
  afterEach(() => sb.cleanup());

  const store = (): string => join(dataDir, "net1");
  const netns = (id: string): string => join(sb.dir, "netns", id);

  /** ADDs `id` through the runtime with a netns path that exists (a plain file stands for it); returns its address. */
  const attach = async (id: string): Promise<string> => {
    writeFileSync(netns(id), "");
    const runtime = new CniRuntime({ paths: [sb.binDir], cacheDir: sb.cacheDir });
    const list = await loadNetwork(confDir, "net1");
    const result = (await runtime.addNetworkList(list, { containerID: id, netns: netns(id), ifName: "eth0" })) as {
      ips?: { address: string }[];
    };
    return result.ips?.[0]?.address.split("/")[0] ?? "";
  };

  const run = (argv: string[]): Promise<number> => {
    out = "";
    err = "";
    const io: CommandIO = {
      argv,
      env: { NETCONFPATH: confDir, CNI_PATH: sb.binDir, CNI_CACHE_DIR: sb.cacheDir },
      readStdin: async () => new Uint8Array(),
      stdout: (t) => void (out += t),
      stderr: (t) => void (err += t),
    };
    return verb.run(io);
  };

  const reservedIPs = (): string[] =>
    readdirSync(store())
      .filter((n) => n.startsWith("198.18."))
      .sort();

  test("a clean setup reports no leaks and exits 0", async () => {
    await attach("c-live");
    expect(await run([])).toBe(0);
    expect(out).toBe("no leaks in 1 network\n");
    expect(err).toBe("");
  }, 30_000);

  test("finds a stale attachment, a leaked address and a missing reservation, and exits 1", async () => {
    await attach("c-live");
    await attach("c-stale");
    const missing = await attach("c-missing");
    rmSync(netns("c-stale"));
    rmSync(join(store(), missing));
    writeFileSync(join(store(), "198.18.0.50"), "c-gone\r\neth0");

    expect(await run(["--json"])).toBe(1);
    const report = JSON.parse(out) as { networks: string[]; leaks: Leak[] };
    expect(report.networks).toEqual(["net1"]);
    const brief = report.leaks.map((l) => [l.kind, l.containerID, l.ifName, l.where]);
    expect(brief).toEqual([
      ["stale attachment", "c-stale", "eth0", netns("c-stale")],
      ["leaked address", "c-gone", "eth0", "198.18.0.50"],
      ["missing reservation", "c-missing", "eth0", missing],
    ]);

    expect(await run([])).toBe(1);
    expect(out).toContain("NETWORK  KIND");
    expect(out).toMatch(/net1\s+leaked address\s+c-gone\s+eth0\s+198\.18\.0\.50\s+reserved in /);
    expect(out).toEndWith("3 leaks in 1 network: 1 stale attachment, 1 leaked address, 1 missing reservation\n");
  }, 30_000);

  test("a legacy reservation (container ID only) is held by any ifname of its container", async () => {
    const ip = await attach("c-live");
    writeFileSync(join(store(), ip), "c-live");
    expect(await run([])).toBe(0);
    writeFileSync(join(store(), ip), "c-other");
    expect(await run(["--json"])).toBe(1);
    const kinds = (JSON.parse(out) as { leaks: Leak[] }).leaks.map((l) => [l.kind, l.containerID, l.ifName]);
    expect(kinds).toEqual([
      ["leaked address", "c-other", "-"],
      ["missing reservation", "c-live", "eth0"],
    ]);
  }, 30_000);

  test("--repair DELs the stale attachment and GC releases the leaked address, keeping the live one", async () => {
    const live = await attach("c-live");
    await attach("c-stale");
    rmSync(netns("c-stale"));
    writeFileSync(join(store(), "198.18.0.50"), "c-gone\r\neth0");
    expect(reservedIPs()).toHaveLength(3);

    expect(await run(["--repair", "--json"])).toBe(0);
    const report = JSON.parse(out) as { before: Leak[]; errors: string[]; leaks: Leak[] };
    expect(report.before.map((l) => l.kind)).toEqual(["stale attachment", "leaked address"]);
    expect(report).toMatchObject({ errors: [], leaks: [] });
    expect(reservedIPs()).toEqual([live]);
    const cached = readdirSync(join(sb.cacheDir, "results"));
    expect(cached).toEqual(["net1-c-live-eth0"]);
    expect(await run([])).toBe(0);
  }, 30_000);

  test("--net checks only the named network, and a network without host-local reports only stale attachments", async () => {
    sb.install("a");
    writeFileSync(
      join(confDir, "20-net2.conflist"),
      JSON.stringify({ cniVersion: "1.1.0", name: "net2", plugins: [{ type: "a", fake: { log: sb.log } }] }),
    );
    mkdirSync(store(), { recursive: true });
    writeFileSync(join(store(), "198.18.0.50"), "c-gone\r\neth0");
    const runtime = new CniRuntime({ paths: [sb.binDir], cacheDir: sb.cacheDir });
    const net2 = await loadNetwork(confDir, "net2");
    await runtime.addNetworkList(net2, { containerID: "c2", netns: netns("gone"), ifName: "eth0" });

    expect(await run(["--net", "net2", "--json"])).toBe(1);
    const report = JSON.parse(out) as { networks: string[]; leaks: Leak[] };
    expect(report.networks).toEqual(["net2"]);
    expect(report.leaks.map((l) => [l.network, l.kind, l.containerID])).toEqual([["net2", "stale attachment", "c2"]]);
    expect(existsSync(netns("gone"))).toBe(false);

    expect(await run(["--net=nope"])).toBe(1);
    expect(out).toContain("nope");
  }, 30_000);

  test("rejects positionals and unknown flags with usage status 2", async () => {
    expect(await run(["net1"])).toBe(2);
    expect(err).toContain('unexpected argument "net1"');
    expect(await run(["--bogus"])).toBe(2);
  });
});
