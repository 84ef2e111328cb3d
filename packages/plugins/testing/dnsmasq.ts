/**
 * A DHCP server for real-kernel tests: two throwaway namespaces joined by a veth pair
 * ("server" holds srv0 = 198.18.<n>.1/24 and dnsmasq; "container" holds eth0, no
 * address), dnsmasq run in the foreground with its own lease and pid files in a temp dir.
 * Always pair with {@link teardown} in `finally`.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ThrowawayNetns, createThrowawayNetns, deleteThrowawayNetns } from "@tscni/kernel/testing";

/** The test bed: namespaces, the dnsmasq process and its files. */
export interface DhcpBed {
  server: ThrowawayNetns;
  container: ThrowawayNetns;
  dir: string;
  subnet: number;
  dnsmasq?: ReturnType<typeof Bun.spawn>;
  extra: string[];
}

function run(argv: string[]): void {
  const r = Bun.spawnSync(argv, { stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")}: ${r.stderr.toString().trim()}`);
}

/** Creates the namespaces and the veth pair; dnsmasq is started by {@link startDnsmasq}. */
export function makeBed(subnet: number, extra: string[] = []): DhcpBed {
  const bed: DhcpBed = {
    server: createThrowawayNetns("dhs"),
    container: createThrowawayNetns("dhc"),
    dir: mkdtempSync(join(tmpdir(), "tscni-dhcp-")),
    subnet,
    extra,
  };
  try {
    run([
      "ip",
      "-n",
      bed.server.name,
      "link",
      "add",
      "srv0",
      "type",
      "veth",
      "peer",
      "name",
      "eth0",
      "netns",
      bed.container.name,
    ]);
    run(["ip", "-n", bed.server.name, "addr", "add", `198.18.${subnet}.1/24`, "dev", "srv0"]);
    run(["ip", "-n", bed.server.name, "link", "set", "srv0", "up"]);
  } catch (err) {
    teardown(bed);
    throw err;
  }
  return bed;
}

/** Starts dnsmasq (2-minute leases, T1 4 s, T2 7 s unless `extra` says otherwise) and waits until it listens. */
export async function startDnsmasq(bed: DhcpBed): Promise<void> {
  const n = bed.subnet;
  bed.dnsmasq = Bun.spawn(
    [
      "ip",
      "netns",
      "exec",
      bed.server.name,
      "dnsmasq",
      "--no-daemon",
      "--conf-file=/dev/null",
      "--port=0",
      "--user=root",
      "--interface=srv0",
      "--bind-interfaces",
      `--dhcp-range=198.18.${n}.100,198.18.${n}.150,255.255.255.0,2m`,
      `--dhcp-leasefile=${join(bed.dir, "leases")}`,
      `--pid-file=${join(bed.dir, "pid")}`,
      "--dhcp-authoritative",
      "--no-ping",
      `--dhcp-option=option:router,198.18.${n}.1`,
      "--dhcp-option=option:T1,4",
      "--dhcp-option=option:T2,7",
      "--log-dhcp",
      `--log-facility=${join(bed.dir, "log")}`,
      ...bed.extra,
    ],
    { stdout: "ignore", stderr: "pipe" },
  );
  for (let i = 0; i < 100; i++) {
    const r = Bun.spawnSync(["ip", "netns", "exec", bed.server.name, "ss", "-ulnH", "sport", "= :67"], {
      stdout: "pipe",
    });
    if (r.stdout.toString().includes(":67")) return;
    if (bed.dnsmasq.exitCode !== null)
      throw new Error(`dnsmasq exited: ${await new Response(bed.dnsmasq.stderr as ReadableStream).text()}`);
    await Bun.sleep(50);
  }
  throw new Error("dnsmasq did not start listening on port 67");
}

/** Kills dnsmasq and waits for it to exit. */
export async function stopDnsmasq(bed: DhcpBed): Promise<void> {
  const p = bed.dnsmasq;
  bed.dnsmasq = undefined;
  if (p === undefined) return;
  p.kill("SIGTERM");
  await p.exited;
}

/** dnsmasq's lease file: address to [expiry epoch seconds, client id]. */
export function leases(bed: DhcpBed): Map<string, { expires: number; clientId: string }> {
  const out = new Map<string, { expires: number; clientId: string }>();
  let text = "";
  try {
    text = readFileSync(join(bed.dir, "leases"), "utf8");
  } catch {
    return out;
  }
  for (const line of text.split("\n")) {
    const f = line.split(" ");
    if (f.length >= 5) out.set(f[2] as string, { expires: Number(f[0]), clientId: f[4] as string });
  }
  return out;
}

/** Stops dnsmasq, deletes both namespaces and the temp dir; never throws. */
export function teardown(bed: DhcpBed): void {
  bed.dnsmasq?.kill("SIGKILL");
  deleteThrowawayNetns(bed.container);
  deleteThrowawayNetns(bed.server);
  rmSync(bed.dir, { recursive: true, force: true });
}
