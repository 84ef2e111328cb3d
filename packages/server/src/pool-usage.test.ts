/**
 * IPAM pool usage per range (issue 11 item 2): sizes as host-local canonicalises its
 * ranges, reservations counted from the store's file names, and the gauges in a real
 * daemon's `/metrics`.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NetworkConfigList } from "@tscni/config";
import { PodNetworkManager } from "@tscni/runtime";
import { makeSandbox } from "@tscni/runtime/testing";
import { startDaemon } from "./daemon.ts";
import { poolUsage } from "./pool-usage.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "tscni-pool-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A list as the config loader makes it, from plugin objects. */
function list(name: string, plugins: Record<string, unknown>[]): NetworkConfigList {
  const bytes = new TextEncoder().encode(JSON.stringify({ cniVersion: "1.0.0", name, plugins }));
  return {
    name,
    cniVersion: "1.0.0",
    disableCheck: false,
    disableGC: false,
    loadOnlyInlinedPlugins: false,
    bytes,
    plugins: plugins.map((p) => ({
      network: p as { type: string },
      bytes: new TextEncoder().encode(JSON.stringify(p)),
    })),
  };
}

/** Reservation files as host-local writes them: named by the address, holding the attachment (SPEC.md 8.3). */
function reserve(network: string, ...ips: string[]): void {
  mkdirSync(join(dir, network), { recursive: true });
  for (const ip of ips) writeFileSync(join(dir, network, ip), "c1\r\neth0");
  writeFileSync(join(dir, network, "last_reserved_ip.0"), ips[0] ?? "");
  writeFileSync(join(dir, network, "lock"), "");
}

describe("poolUsage", () => {
  test("sizes each range as host-local does (no network, broadcast or gateway) and counts the reservations inside it", () => {
    reserve("pods", "198.18.0.2", "198.18.0.3", "198.18.1.11", "198.18.1.40", "2001:db8::5");
    const usage = poolUsage(
      list("pods", [
        {
          type: "bridge",
          ipam: {
            type: "host-local",
            dataDir: dir,
            ranges: [
              [
                { subnet: "198.18.0.0/24" },
                { subnet: "198.18.1.0/24", rangeStart: "198.18.1.10", rangeEnd: "198.18.1.20" },
              ],
              [{ subnet: "2001:db8::/120", gateway: "2001:db8::ff" }],
            ],
          },
        },
      ]),
    );
    expect(usage).toEqual([
      { network: "pods", range: "198.18.0.0/24", allocated: 2, size: 253 },
      { network: "pods", range: "198.18.1.10-198.18.1.20", allocated: 1, size: 11 },
      { network: "pods", range: "2001:db8::/120", allocated: 1, size: 254 },
    ]);
  });

  test("reads host-local's legacy top-level subnet, and reports an empty store as nothing allocated", () => {
    const usage = poolUsage(
      list("empty", [
        { type: "ptp", ipam: { type: "host-local", dataDir: dir, subnet: "198.18.2.0/28", gateway: "198.18.2.14" } },
      ]),
    );
    expect(usage).toEqual([{ network: "empty", range: "198.18.2.0/28", allocated: 0, size: 13 }]);
  });

  test("leaves out plugins without host-local and ranges host-local would refuse", () => {
    const usage = poolUsage(
      list("other", [
        { type: "portmap" },
        { type: "macvlan", ipam: { type: "dhcp" } },
        {
          type: "bridge",
          ipam: {
            type: "host-local",
            dataDir: dir,
            ranges: [
              [
                { subnet: "not-a-subnet" },
                { subnet: "198.18.3.0/24", rangeStart: "198.18.3.50", rangeEnd: "198.18.3.10" },
              ],
            ],
          },
        },
      ]),
    );
    expect(usage).toEqual([]);
  });
});

describe("the daemon's /metrics", () => {
  test("reports allocated and size per host-local range of the default network as gauges", async () => {
    const confDir = join(dir, "net.d");
    mkdirSync(confDir);
    writeFileSync(
      join(confDir, "10-pods.conflist"),
      JSON.stringify({
        cniVersion: "1.0.0",
        name: "pods",
        plugins: [
          { type: "bridge", ipam: { type: "host-local", dataDir: dir, ranges: [[{ subnet: "198.18.4.0/24" }]] } },
        ],
      }),
    );
    reserve("pods", "198.18.4.2", "198.18.4.3", "198.18.4.4");
    const sb = makeSandbox();
    sb.install("bridge"); // the network is valid only when its plugins are installed
    const manager = new PodNetworkManager({
      confDir,
      binDirs: [sb.binDir],
      vendorPrefix: sb.dir,
      cacheDir: sb.cacheDir,
    });
    const socketPath = join(dir, "d.sock");
    const daemon = await startDaemon({ socketPath, manager, syncIntervalMs: 0 });
    try {
      const scrape = async (): Promise<string> =>
        (await fetch("http://localhost/metrics", { unix: socketPath })).text();
      const text = await scrape();
      expect(text).toContain("# TYPE tscni_ipam_range_allocated gauge\n");
      expect(text).toContain('tscni_ipam_range_allocated{network="pods",range="198.18.4.0/24"} 3\n');
      expect(text).toContain('tscni_ipam_range_size{network="pods",range="198.18.4.0/24"} 253\n');
      // Read at each scrape: a release shows at once.
      rmSync(join(dir, "pods", "198.18.4.3"));
      expect(await scrape()).toContain('tscni_ipam_range_allocated{network="pods",range="198.18.4.0/24"} 2\n');
    } finally {
      await daemon.stop();
      sb.cleanup();
    }
  });
});
