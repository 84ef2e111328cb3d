/**
 * Real concurrency (LC-2): twenty processes allocate on one data dir at the same moment
 * and must get twenty distinct addresses, through the real flock and exclusive creates.
 * Runs the entry from source, and the compiled binary `dist/bin/host-local` when the
 * build has made it (scripts/test.ts builds it first).
 */
import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { missingFile, skipUnless } from "@tscni/spec/testing";

const ROOT = resolve(import.meta.dir, "../../..");
const BINARY = join(ROOT, "dist/bin/host-local");
const N = 20;

async function concurrentAdds(cmd: (startAt: number) => string[]): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "tscni-host-local-conc-"));
  try {
    const conf = JSON.stringify({
      cniVersion: "1.1.0",
      name: "conc",
      type: "host-local",
      ipam: { type: "host-local", subnet: "198.18.0.0/24", dataDir },
    });
    // Every process waits for one shared start time, so the ADDs really overlap.
    const startAt = Date.now() + 1500;
    const procs = Array.from({ length: N }, (_, i) =>
      Bun.spawn(cmd(startAt), {
        env: {
          PATH: process.env.PATH ?? "",
          CNI_COMMAND: "ADD",
          CNI_CONTAINERID: `conc-${i}`,
          CNI_NETNS: "/var/run/netns/tscni-none",
          CNI_IFNAME: "eth0",
          CNI_PATH: "/opt/cni/bin",
          TSCNI_START_AT: String(startAt),
        },
        stdin: new TextEncoder().encode(conf),
        stdout: "pipe",
        stderr: "pipe",
      }),
    );
    const outs = await Promise.all(
      procs.map(async (p) => ({
        code: await p.exited,
        out: await new Response(p.stdout).text(),
        err: await new Response(p.stderr).text(),
      })),
    );
    for (const o of outs) expect(o).toMatchObject({ code: 0 });
    const addresses = outs.map((o) => (JSON.parse(o.out) as { ips: { address: string }[] }).ips[0]?.address);
    expect(new Set(addresses).size).toBe(N);
    const files = readdirSync(join(dataDir, "conc")).filter((n) => n.startsWith("198.18.0."));
    expect(files.sort()).toEqual(addresses.map((a) => a?.split("/")[0]).sort() as string[]);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test("twenty concurrent ADDs from source on one data dir get twenty distinct addresses", async () => {
  await concurrentAdds(() => [process.execPath, join(import.meta.dir, "../testing/host-local-concurrency.worker.ts")]);
}, 60_000);

test.skipIf(skipUnless("the compiled host-local's concurrency test", missingFile(BINARY, "npm run build")))(
  "twenty concurrent ADDs of the compiled binary get twenty distinct addresses",
  async () => {
    // A shell sleeps until the start time, then execs the binary under its plugin name.
    await concurrentAdds((startAt) => [
      "/bin/sh",
      "-c",
      'sleep "$1"; exec "$2"',
      "sh",
      ((startAt - Date.now()) / 1000).toFixed(3),
      BINARY,
    ]);
  },
  60_000,
);
