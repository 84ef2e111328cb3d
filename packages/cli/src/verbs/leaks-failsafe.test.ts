/**
 * `cni leaks --repair` fails safe (issue 16 items 1 and 2): an unreadable cache record
 * keeps its addresses and keeps the exit status non-zero; damaged host-local reservation
 * files are shown escaped and repaired at every cniVersion, under the store's lock.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadNetwork } from "@tscni/config";
import { lockAttachment } from "@tscni/ipam/lock";
import { CniRuntime, lockDirOf } from "@tscni/runtime";
import { makeSandbox } from "@tscni/runtime/testing";
import type { Sandbox } from "@tscni/runtime/testing";
import type { CommandIO } from "../io.ts";
import { verb as gcVerb } from "./gc.ts";
import { verb } from "./leaks.ts";

const HOST_LOCAL = resolve(import.meta.dir, "../../../plugins/host-local/index.ts");

for (const version of ["1.1.0", "1.0.0", "0.3.1"]) {
  describe(`cni leaks --repair at cniVersion ${version}`, () => {
    let sb: Sandbox;
    let confDir: string;
    let dataDir: string;
    let out = "";

    beforeEach(() => {
      sb = makeSandbox();
      const path = join(sb.binDir, "host-local");
      writeFileSync(
        path,
        `#!${process.execPath}\nimport { main } from ${JSON.stringify(HOST_LOCAL)};\nprocess.exitCode = await main({ env: process.env, readStdin: async () => new Uint8Array(await Bun.stdin.arrayBuffer()), stdout: (s) => void process.stdout.write(s), stderr: (s) => void process.stderr.write(s) });\n`,
      );
      chmodSync(path, 0o755);
      confDir = join(sb.dir, "net.d");
      dataDir = join(sb.dir, "ipam");
      mkdirSync(confDir);
      mkdirSync(join(sb.dir, "netns"));
      const ipam = { type: "host-local", subnet: "198.18.0.0/24", dataDir };
      writeFileSync(
        join(confDir, "10-net1.conflist"),
        JSON.stringify({ cniVersion: version, name: "net1", plugins: [{ type: "host-local", ipam }] }),
      );
    });
    afterEach(() => sb.cleanup());

    const reservation = (ip: string): string => join(dataDir, "net1", ip);
    const runtime = (): CniRuntime => new CniRuntime({ paths: [sb.binDir], cacheDir: sb.cacheDir });
    const attach = async (id: string): Promise<string> => {
      const ns = join(sb.dir, "netns", id);
      writeFileSync(ns, "");
      const result = (await runtime().addNetworkList(await loadNetwork(confDir, "net1"), {
        containerID: id,
        netns: ns,
        ifName: "eth0",
      })) as {
        ips?: { address: string }[];
        ip4?: { ip: string };
      };
      return (result.ips?.[0]?.address ?? result.ip4?.ip ?? "").split("/")[0] ?? "";
    };
    const run = (argv: string[], v = verb): Promise<number> => {
      out = "";
      const io: CommandIO = {
        argv,
        env: { NETCONFPATH: confDir, CNI_PATH: sb.binDir, CNI_CACHE_DIR: sb.cacheDir },
        readStdin: async () => new Uint8Array(),
        stdout: (t) => void (out += t),
        stderr: (t) => void (out += t),
      };
      return v.run(io);
    };

    test("never releases the address of a live pod whose cache record is truncated, repairs the rest, and exits 1 naming the file", async () => {
      const ip = await attach("c-live");
      const record = join(sb.cacheDir, "results", "net1-c-live-eth0");
      writeFileSync(record, readFileSync(record, "utf8").slice(0, 40));
      writeFileSync(reservation("198.18.0.77"), "c-gone\r\neth0"); // a real leak, so that repair runs
      expect(await run(["--repair"])).toBe(1);
      expect(existsSync(reservation("198.18.0.77"))).toBe(false);
      expect(out).toContain("unknown attachment");
      expect(out).toContain(record);
      expect(out).toContain("not JSON (truncated or garbage)");
      expect(existsSync(reservation(ip))).toBe(true);
      expect(await attach("c-next")).not.toBe(ip);
    });

    test("shows a garbage reservation escaped and releases it when no live attachment lists it", async () => {
      await attach("c-live");
      writeFileSync(reservation("198.18.0.99"), "\x1b[2J\x00evil\r\n");
      expect(await run([])).toBe(1);
      expect(out).toContain("damaged reservation");
      expect(out).toContain("\\\\x1b[2J\\\\x00evil");
      expect(out).not.toContain("\x1b");
      expect(await run(["--repair"])).toBe(0);
      expect(existsSync(reservation("198.18.0.99"))).toBe(false);
    });

    test("rewrites an empty or truncated reservation of a live attachment instead of releasing it", async () => {
      const a = await attach("c-a");
      const b = await attach("c-b");
      writeFileSync(reservation(a), "");
      writeFileSync(reservation(b), "c-b\r\ne");
      expect(await run(["--repair"])).toBe(0);
      expect(readFileSync(reservation(a), "utf8")).toBe("c-a\r\neth0");
      expect(readFileSync(reservation(b), "utf8")).toBe("c-b\r\neth0");
    });

    test("releases a leaked address at every version, under the store's lock", async () => {
      await attach("c-live");
      writeFileSync(reservation("198.18.0.77"), "c-gone\r\neth0");
      expect(await run(["--repair"])).toBe(0);
      expect(readdirSync(join(dataDir, "net1")).filter((n) => n.startsWith("198.18.")).length).toBe(1);
    });

    test("keeps the reservation of an ADD in flight (its attachment lock is held), releases it once the lock is free", async () => {
      await attach("c-live");
      writeFileSync(reservation("198.18.0.66"), "c-inflight\r\neth0"); // reserved, result not cached yet
      writeFileSync(reservation("198.18.0.77"), "c-gone\r\neth0");
      const release = await lockAttachment(lockDirOf(sb.cacheDir), {
        network: "net1",
        containerID: "c-inflight",
        ifName: "eth0",
      });
      try {
        await run(["--repair"]);
        expect(existsSync(reservation("198.18.0.66"))).toBe(true);
        expect(existsSync(reservation("198.18.0.77"))).toBe(false);
      } finally {
        release();
      }
      expect(await run(["--repair"])).toBe(0);
      expect(existsSync(reservation("198.18.0.66"))).toBe(false);
    });

    test("cni gc releases every reservation but those of an unreadable record, and exits 1 while that record stays", async () => {
      const ip = await attach("c-live");
      await attach("c-other");
      writeFileSync(reservation("198.18.0.77"), "c-gone\r\neth0");
      expect(await run(["net1", "/nonexistent"], gcVerb)).toBe(0);
      expect(readdirSync(join(dataDir, "net1")).filter((n) => n.startsWith("198.18.")).length).toBe(0);
      const kept = await attach("c-kept");
      const record = join(sb.cacheDir, "results", "net1-c-kept-eth0");
      writeFileSync(record, "");
      expect(await run(["net1", "/nonexistent"], gcVerb)).toBe(1);
      expect(out).toContain("unknown attachment");
      expect(existsSync(reservation(kept))).toBe(true);
      expect(ip).not.toBe("");
    });
  });
}
