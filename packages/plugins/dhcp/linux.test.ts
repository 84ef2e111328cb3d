/**
 * The dhcp plugin and `cni dhcp daemon` (the compiled binary) against a real DHCP server:
 * dnsmasq in a throwaway "server" namespace, the lease taken in a throwaway "container"
 * namespace over a veth pair (dnsmasq.testing.ts). Lease, renewal, release, a server
 * restart, a daemon restart and a crashed plugin.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { firstMissing, missingFile, missingRoot, missingTools, skipUnless } from "@tscni/spec/testing";
import { type DhcpBed, leases, makeBed, startDnsmasq, stopDnsmasq, teardown } from "../testing/dnsmasq.ts";

const BIN = resolve(import.meta.dir, "../../../dist/bin");
const missing = firstMissing(
  missingRoot(),
  missingTools(["ip", "dnsmasq"]),
  missingFile(join(BIN, "dhcp"), "npm run build"),
);

let bed: DhcpBed | undefined;
let bed2: DhcpBed | undefined;
let daemon: ReturnType<typeof Bun.spawn> | undefined;
let daemonLog = "";

afterEach(async () => {
  daemon?.kill("SIGKILL");
  await daemon?.exited;
  daemon = undefined;
  for (const b of [bed, bed2]) if (b !== undefined) teardown(b);
  bed = undefined;
  bed2 = undefined;
});

async function startDaemon(b: DhcpBed): Promise<void> {
  const sock = join(b.dir, "dhcp.sock");
  const p = Bun.spawn(
    [
      join(BIN, "cni"),
      "dhcp",
      "daemon",
      "-socketpath",
      sock,
      "-statedir",
      join(b.dir, "state"),
      "-timeout",
      "500ms",
      "-resendtimeout",
      "30s",
    ],
    { stderr: "pipe" },
  );
  daemon = p;
  (async () => {
    for await (const chunk of p.stderr as ReadableStream<Uint8Array>) daemonLog += new TextDecoder().decode(chunk);
  })();
  for (let i = 0; i < 200 && !existsSync(sock); i++) await Bun.sleep(25);
  if (!existsSync(sock)) throw new Error(`daemon did not start: ${daemonLog}`);
}

async function stopDaemon(): Promise<void> {
  daemon?.kill("SIGTERM");
  expect(await daemon?.exited).toBe(0);
  daemon = undefined;
}

function conf(b: DhcpBed, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    cniVersion: "1.0.0",
    name: "dnet",
    type: "bridge",
    ipam: { type: "dhcp", daemonSocketPath: join(b.dir, "dhcp.sock"), ...extra },
  });
}

function plugin(
  b: DhcpBed,
  command: string,
  stdin = conf(b),
  containerID = "ctr1",
): { code: number; out: Record<string, unknown> } {
  const env = {
    CNI_COMMAND: command,
    CNI_CONTAINERID: containerID,
    CNI_NETNS: b.container.path,
    CNI_IFNAME: "eth0",
    CNI_PATH: BIN,
  };
  const r = Bun.spawnSync([join(BIN, "dhcp")], { env, stdin: Buffer.from(stdin), stdout: "pipe", stderr: "pipe" });
  const text = r.stdout.toString();
  return { code: r.exitCode ?? -1, out: text.trim() === "" ? {} : JSON.parse(text) };
}

/** The hex form dnsmasq writes for our client id (option 61: type 0 then the text). */
function dnsmasqClientId(text: string): string {
  return [0, ...new TextEncoder().encode(text)].map((x) => x.toString(16).padStart(2, "0")).join(":");
}

async function until(what: string, ok: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n${daemonLog}`);
    await Bun.sleep(100);
  }
}

describe.skipIf(skipUnless("dhcp against dnsmasq on the real kernel", missing))(
  "dhcp against dnsmasq on the real kernel",
  () => {
    test("ADD leases the address dnsmasq hands out, the daemon renews it at T1, and DEL releases it", async () => {
      bed = makeBed(71);
      await startDnsmasq(bed);
      await startDaemon(bed);
      const add = plugin(bed, "ADD");
      expect(add.code).toBe(0);
      const ip = (add.out.ips as { address: string; gateway: string }[])[0];
      expect(ip?.gateway).toBe("198.18.71.1");
      expect(add.out.routes).toEqual([{ dst: "0.0.0.0/0", gw: "198.18.71.1" }]);
      const addr = ip?.address.split("/")[0] as string;
      expect(ip?.address).toMatch(/^198\.18\.71\.\d+\/24$/);
      const held = leases(bed).get(addr);
      expect(held?.clientId).toBe(dnsmasqClientId("ctr1/dnet/eth0"));
      expect(readdirSync(join(bed.dir, "state"))).toHaveLength(1);
      // T1 is 4 s: dnsmasq moves the lease's expiry forward when the daemon renews.
      const first = held?.expires ?? 0;
      await until("a renewal", () => (leases(bed as DhcpBed).get(addr)?.expires ?? 0) > first, 8000);
      expect(plugin(bed, "CHECK").code).toBe(0);
      // A repeated ADD gets the same lease, not a second one.
      expect((plugin(bed, "ADD").out.ips as { address: string }[])[0]?.address).toBe(ip?.address);
      expect(leases(bed).size).toBe(1);
      const del = plugin(bed, "DEL");
      expect(del.code).toBe(0);
      await until("the release", () => !leases(bed as DhcpBed).has(addr), 3000);
      expect(readdirSync(join(bed.dir, "state"))).toHaveLength(0);
      // DEL again: nothing held is success.
      expect(plugin(bed, "DEL").code).toBe(0);
    }, 60_000);

    test("the lease survives a DHCP server restart and is renewed by the new server", async () => {
      bed = makeBed(72);
      await startDnsmasq(bed);
      await startDaemon(bed);
      const addr = ((plugin(bed, "ADD").out.ips as { address: string }[])[0]?.address ?? "").split("/")[0] as string;
      expect(leases(bed).has(addr)).toBe(true);
      await stopDnsmasq(bed);
      await Bun.sleep(5000); // past T1: the renewals fail meanwhile
      const before = leases(bed).get(addr)?.expires ?? 0;
      await startDnsmasq(bed);
      await until(
        "a renewal by the restarted server",
        () => (leases(bed as DhcpBed).get(addr)?.expires ?? 0) > before,
        15_000,
      );
      expect(daemon?.exitCode).toBeNull();
      expect(plugin(bed, "DEL").code).toBe(0);
      await until("the release", () => !leases(bed as DhcpBed).has(addr), 3000);
    }, 60_000);

    test("a restarted daemon resumes the leases it kept on disk, renews them and releases them on DEL", async () => {
      bed = makeBed(73);
      await startDnsmasq(bed);
      await startDaemon(bed);
      const addr = ((plugin(bed, "ADD").out.ips as { address: string }[])[0]?.address ?? "").split("/")[0] as string;
      await stopDaemon();
      expect(readdirSync(join(bed.dir, "state"))).toHaveLength(1);
      expect(leases(bed).has(addr)).toBe(true);
      daemonLog = "";
      await startDaemon(bed);
      await until("the resume", () => daemonLog.includes("resumed 1 lease"), 5000);
      const before = leases(bed).get(addr)?.expires ?? 0;
      await until("a renewal after the restart", () => (leases(bed as DhcpBed).get(addr)?.expires ?? 0) > before, 8000);
      expect(plugin(bed, "DEL").code).toBe(0);
      await until("the release", () => !leases(bed as DhcpBed).has(addr), 3000);
    }, 60_000);

    test("a plugin killed in the middle of ADD leaves the daemon serving", async () => {
      bed = makeBed(74);
      await startDnsmasq(bed);
      await startDaemon(bed);
      const env = {
        CNI_COMMAND: "ADD",
        CNI_CONTAINERID: "ctr1",
        CNI_NETNS: bed.container.path,
        CNI_IFNAME: "eth0",
        CNI_PATH: BIN,
      };
      const p = Bun.spawn([join(BIN, "dhcp")], { env, stdin: Buffer.from(conf(bed)), stdout: "ignore" });
      await Bun.sleep(150);
      p.kill("SIGKILL");
      await p.exited;
      const add = plugin(bed, "ADD");
      expect(add.code).toBe(0);
      expect(daemon?.exitCode).toBeNull();
      expect(plugin(bed, "DEL").code).toBe(0);
    }, 60_000);

    test("one daemon serves two containers at once, each leasing from the server on its own link", async () => {
      bed = makeBed(76);
      bed2 = makeBed(77);
      await Promise.all([startDnsmasq(bed), startDnsmasq(bed2)]);
      await startDaemon(bed);
      const env = (b: DhcpBed, id: string) => ({
        CNI_COMMAND: "ADD",
        CNI_CONTAINERID: id,
        CNI_NETNS: b.container.path,
        CNI_IFNAME: "eth0",
        CNI_PATH: BIN,
      });
      const run = async (b: DhcpBed, id: string): Promise<string> => {
        const p = Bun.spawn([join(BIN, "dhcp")], {
          env: env(b, id),
          stdin: Buffer.from(conf(bed as DhcpBed)),
          stdout: "pipe",
        });
        const out = JSON.parse(await new Response(p.stdout).text()) as { ips: { address: string }[] };
        return out.ips[0]?.address ?? "";
      };
      const [a, b] = await Promise.all([run(bed, "ctrA"), run(bed2, "ctrB")]);
      expect(a).toMatch(/^198\.18\.76\.\d+\/24$/);
      expect(b).toMatch(/^198\.18\.77\.\d+\/24$/);
      expect(leases(bed2).get(b.split("/")[0] as string)?.clientId).toBe(dnsmasqClientId("ctrB/dnet/eth0"));
      expect(readdirSync(join(bed.dir, "state"))).toHaveLength(2);
    }, 60_000);

    test("without a running daemon the plugin fails with the reference's dial error", async () => {
      bed = makeBed(75);
      const r = plugin(bed, "ADD");
      expect(r.code).toBe(1);
      expect(r.out).toEqual({
        cniVersion: "1.0.0",
        code: 999,
        msg: `error dialing DHCP daemon: dial unix ${join(bed.dir, "dhcp.sock")}: connect: no such file or directory`,
      });
    }, 30_000);
  },
);
