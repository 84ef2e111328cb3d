/**
 * bandwidth on the real kernel, in throwaway namespaces (one plays the host, one the
 * container, joined by a veth): ADD through the netlink driver really limits both
 * directions (a timed TCP transfer between the namespaces runs at the configured rate, and
 * the tbf's statistics show it throttled); CHECK passes, then fails on a tampered tbf; DEL
 * leaves no ifb and no shaping. Root only; CI runs it as root (never skips there).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { HOST, TC_H_ROOT } from "@tscni/kernel";
import { createNetlinkKernel } from "@tscni/kernel/netlink";
import { createThrowawayNetns, deleteThrowawayNetns, type ThrowawayNetns } from "@tscni/kernel/testing";
import type { CmdArgs } from "@tscni/skel";
import { missingRoot, missingTools, skipUnless } from "@tscni/spec/testing";
import { bandwidthDefinition } from "./index.ts";
import { ifbName } from "./plan.ts";

const skip = skipUnless("bandwidth on the real kernel", missingRoot() ?? missingTools(["ip", "tc"]));
const TIMER = new URL("./_tcp-timer.ts", import.meta.url).pathname;
// 8 Mbit/s each way with a 10 KB burst: 1 MB takes about a second.
const limits = { ingressRate: 8_000_000, ingressBurst: 80_000, egressRate: 8_000_000, egressBurst: 80_000 };
const MB = 1_000_000;

function sh(ns: string, argv: string[]): string {
  const r = Bun.spawnSync(["ip", "netns", "exec", ns, ...argv], { stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

/** Sends `bytes` over TCP from namespace `from` to `to` (listening on `addr`) and returns the receiver's bytes and milliseconds. */
async function transfer(from: string, to: string, addr: string, bytes: number): Promise<{ bytes: number; ms: number }> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const recv = Bun.spawn(["ip", "netns", "exec", to, process.execPath, TIMER, "recv", addr, String(port)], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = recv.stdout.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  expect(first).toContain("listening");
  const send = Bun.spawn(
    ["ip", "netns", "exec", from, process.execPath, TIMER, "send", addr, String(port), String(bytes)],
    { stderr: "inherit" },
  );
  const timer = setTimeout(() => {
    send.kill();
    recv.kill();
  }, 8000);
  await send.exited;
  let out = first.replace(/^listening\n?/, "");
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    out += new TextDecoder().decode(value);
  }
  await recv.exited;
  clearTimeout(timer);
  const [b, ms] = out.trim().split(" ").map(Number);
  return { bytes: b ?? 0, ms: ms ?? 0 };
}

describe.skipIf(skip)("bandwidth on the real kernel", () => {
  let host: ThrowawayNetns;
  let ctr: ThrowawayNetns;
  let args: (command: string, extra?: Record<string, unknown>) => CmdArgs;

  beforeAll(() => {
    host = createThrowawayNetns("bwh");
    ctr = createThrowawayNetns("bwc");
    sh(host.name, ["ip", "link", "add", "tscnibw0", "type", "veth", "peer", "name", "eth0", "netns", ctr.name]);
    sh(host.name, ["ip", "addr", "add", "198.18.80.1/24", "dev", "tscnibw0"]);
    sh(host.name, ["ip", "link", "set", "tscnibw0", "up"]);
    sh(ctr.name, ["ip", "addr", "add", "198.18.80.2/24", "dev", "eth0"]);
    sh(ctr.name, ["ip", "link", "set", "eth0", "up"]);
    args = (command, extra = limits) => {
      const prevResult = {
        cniVersion: "1.0.0",
        interfaces: [{ name: "tscnibw0" }, { name: "eth0", sandbox: ctr.path }],
        ips: [{ address: "198.18.80.2/24", interface: 1 }],
      };
      const config = { cniVersion: "1.0.0", name: "bwreal", type: "bandwidth", prevResult, ...extra };
      return {
        command,
        containerID: "ctr-real",
        netns: ctr.path,
        ifName: "eth0",
        args: "",
        path: "",
        stdinData: new Uint8Array(),
        config,
      };
    };
  });
  afterAll(() => {
    deleteThrowawayNetns(ctr);
    deleteThrowawayNetns(host);
  });

  test("ADD limits both directions to the configured rate, CHECK passes then fails on a tampered tbf, DEL removes the ifb", async () => {
    const kernel = createNetlinkKernel({ host: host.path });
    const h = bandwidthDefinition(kernel).handlers;
    const ifb = ifbName("bwreal", "ctr-real");
    await h.add!(args("ADD"));
    await h.check!(args("CHECK"));
    // Host to container: the tbf at the host end's root. 1 MB at 1 MB/s.
    const down = await transfer(host.name, ctr.name, "198.18.80.2", MB);
    // Container to host: redirected through the ifb and its tbf.
    const up = await transfer(ctr.name, host.name, "198.18.80.1", MB);
    for (const t of [down, up]) {
      expect(t.bytes).toBe(MB);
      // 1 MB at 1,000,000 B/s less the 10 KB burst: at least 0.8 s (unshaped it takes
      // milliseconds); well under the 8 s a rate taken as bytes instead of bits would give
      // (with room for a loaded machine).
      expect(t.ms).toBeGreaterThan(800);
      expect(t.ms).toBeLessThan(5000);
    }
    const stats = (dev: string) => sh(host.name, ["tc", "-s", "qdisc", "show", "dev", dev]);
    for (const dev of ["tscnibw0", ifb]) {
      const s = stats(dev);
      expect(s).toMatch(/qdisc tbf 1: root .*rate 8Mbit burst 10000b lat 25ms/);
      expect(Number(/Sent (\d+) bytes/.exec(s)?.[1])).toBeGreaterThan(MB);
      expect(Number(/overlimits (\d+)/.exec(s)?.[1])).toBeGreaterThan(0);
    }
    // Tamper: the same tbf with one more byte of limit.
    const q = (await kernel.qdiscs(HOST, ifb)).find((x) => x.kind === "tbf");
    expect(q?.tbf).toEqual({ rate: 1_000_000, limit: 35_000, buffer: 156_250 });
    await kernel.apply([
      { op: "qdisc.del", ns: HOST, dev: ifb, parent: TC_H_ROOT },
      {
        op: "qdisc.add",
        ns: HOST,
        dev: ifb,
        kind: "tbf",
        handle: 0x10000,
        parent: TC_H_ROOT,
        tbf: { rate: 1_000_000, limit: 35_001, buffer: 156_250 },
      },
    ]);
    expect(
      await h.check!(args("CHECK")).then(
        () => "passed",
        (e: Error) => e.message,
      ),
    ).toBe("Limit doesn't match");
    await h.del!(args("DEL"));
    expect(await kernel.link(HOST, ifb)).toBeUndefined();
    await h.del!(args("DEL"));
  }, 30_000);
});
