/**
 * The firewall plugin against the reference's (Debian v1.1.1, `/usr/lib/cni/firewall`),
 * iptables backend, on the real kernel in throwaway namespaces: each makes the same rule
 * set (iptables-save, both families), each CHECKs the other's, and each DELs the other's
 * leaving no rule of the container (issue 9 item 6, interop).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { NetnsSet } from "../lib/netns.ts";
import { OUR_BIN_DIR, REFERENCE_PLUGINS, announceSkip, isRoot, missingReference } from "./_reference.ts";

const missing = missingReference({ go: false });
const skip = missing ?? (isRoot() ? undefined : "not root");
announceSkip("firewall.compat.test.ts", skip);
if (process.env.CI === "true" && skip !== undefined)
  throw new Error(`firewall.compat.test.ts cannot run under CI: ${skip}`);

const IP4 = "198.18.40.5";
const IP6 = "2001:db8:40::5";
const prevResult = {
  cniVersion: "1.0.0",
  interfaces: [
    { name: "tscnifwc", mac: "02:00:00:00:40:01" },
    { name: "veth4005", mac: "02:00:00:00:40:02" },
    { name: "eth0", mac: "02:00:00:00:40:03", sandbox: "" },
  ],
  ips: [
    { address: `${IP4}/24`, gateway: "198.18.40.1", interface: 2 },
    { address: `${IP6}/64`, gateway: "2001:db8:40::1", interface: 2 },
  ],
};
const conf = (extra: Record<string, unknown> = {}) => ({
  cniVersion: "1.0.0",
  name: "fwcompat",
  type: "firewall",
  prevResult,
  ...extra,
});

type Who = "ours" | "reference";
const binary = (who: Who): string =>
  who === "ours" ? join(OUR_BIN_DIR, "firewall") : join(REFERENCE_PLUGINS, "firewall");

let set: NetnsSet;
let host = "";
let container = "";

async function call(
  who: Who,
  command: "ADD" | "CHECK" | "DEL",
  config: object,
): Promise<{ code: number; stdout: string }> {
  const proc = Bun.spawn(["ip", "netns", "exec", host, binary(who)], {
    env: {
      PATH: process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin",
      CNI_COMMAND: command,
      CNI_CONTAINERID: "fwcompat1",
      CNI_NETNS: NetnsSet.path(container),
      CNI_IFNAME: "eth0",
      CNI_PATH: OUR_BIN_DIR,
      // No system bus in the test namespace: both choose iptables, as on a node without firewalld.
      DBUS_SYSTEM_BUS_ADDRESS: "unix:path=/nonexistent/tscni-no-bus",
    },
    stdin: new TextEncoder().encode(JSON.stringify(config)),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  return { code, stdout };
}

/** Both families' filter tables as iptables-save prints them, without headers and counters. */
async function filterTables(): Promise<string[]> {
  const out: string[] = [];
  for (const tool of ["iptables-save", "ip6tables-save"]) {
    const p = Bun.spawn(["ip", "netns", "exec", host, tool, "-t", "filter"], { stdout: "pipe" });
    const text = await new Response(p.stdout).text();
    await p.exited;
    out.push(
      ...text
        .split("\n")
        .filter((l) => l !== "" && !l.startsWith("#"))
        .map((l) => `${tool} ${l.replace(/ \[\d+:\d+\]$/, "")}`),
    );
  }
  return out;
}

const ofContainer = (lines: string[]) => lines.filter((l) => l.includes(IP4) || l.includes(IP6));

/** Runs `body` in a fresh host namespace (iptables state starts empty each time). */
async function fresh<T>(body: () => Promise<T>): Promise<T> {
  if (host !== "") await Bun.spawn(["ip", "netns", "del", host]).exited;
  set.names.splice(set.names.indexOf(host), 1);
  host = await set.add(`h${Math.random().toString(16).slice(2, 6)}`);
  return body();
}

describe.skipIf(skip !== undefined)("firewall plugin interop with the reference v1.1.1 (iptables)", () => {
  beforeAll(async () => {
    set = new NetnsSet("fwcompat");
    host = await set.add("host");
    container = await set.add("c0");
  });
  afterAll(async () => {
    await set.cleanup();
  });

  for (const extra of [
    {},
    { backend: "iptables", iptablesAdminChainName: "MY-ADMIN" },
    { ingressPolicy: "same-bridge" },
  ]) {
    test(`ADD makes the same rule set, rule for rule, in both families (${JSON.stringify(extra)})`, async () => {
      const made: Record<Who, string[]> = { ours: [], reference: [] };
      for (const who of ["reference", "ours"] as const) {
        made[who] = await fresh(async () => {
          const add = await call(who, "ADD", conf(extra));
          expect(add.code).toBe(0);
          return filterTables();
        });
      }
      // v1.1.1 (Debian) differs: it predates `isolated` and comments every isolation rule
      // "(ingressPolicy: same-bridge)"; upstream main (SPEC) uses "(ingressPolicy:
      // same-bridge|isolated)" on all but the stage-1 bridge rule. Map v1.1.1's to main's.
      const upstream = made.reference.map((l) =>
        l.includes(" ! -o ") ? l : l.replace("(ingressPolicy: same-bridge)", "(ingressPolicy: same-bridge|isolated)"),
      );
      expect(made.ours).toEqual(upstream);
      expect(ofContainer(made.ours).length).toBe(4);
    });
  }

  test("the reference's ADD, then our CHECK and DEL: CHECK passes and no rule of the container is left", async () => {
    await fresh(async () => {
      expect((await call("reference", "ADD", conf({ ingressPolicy: "same-bridge" }))).code).toBe(0);
      const check = await call("ours", "CHECK", conf());
      expect(check.stdout).toBe("");
      expect(check.code).toBe(0);
      const del = await call("ours", "DEL", conf({ ingressPolicy: "same-bridge" }));
      expect(del.code).toBe(0);
      expect(ofContainer(await filterTables())).toEqual([]);
    });
  });

  test("our ADD, then the reference's CHECK and DEL: CHECK passes and no rule of the container is left", async () => {
    await fresh(async () => {
      expect((await call("ours", "ADD", conf({ ingressPolicy: "same-bridge" }))).code).toBe(0);
      const check = await call("reference", "CHECK", conf());
      expect(check.stdout).toBe("");
      expect(check.code).toBe(0);
      expect((await call("reference", "DEL", conf({ ingressPolicy: "same-bridge" }))).code).toBe(0);
      expect(ofContainer(await filterTables())).toEqual([]);
    });
  });

  test("our DEL succeeds when the rules and chains are already gone, and when there were none (DEL-3)", async () => {
    await fresh(async () => {
      expect((await call("ours", "DEL", conf())).code).toBe(0);
      expect((await call("ours", "ADD", conf())).code).toBe(0);
      for (const tool of ["iptables", "ip6tables"]) {
        for (const flag of ["-F", "-X"])
          expect(await Bun.spawn(["ip", "netns", "exec", host, tool, "-t", "filter", flag]).exited).toBe(0);
      }
      const del = await call("ours", "DEL", conf());
      expect(del.stdout).toBe("");
      expect(del.code).toBe(0);
    });
  });

  test("each CHECK fails alike when the container's accept rule is gone", async () => {
    await fresh(async () => {
      expect((await call("ours", "ADD", conf())).code).toBe(0);
      const del = Bun.spawn([
        "ip",
        "netns",
        "exec",
        host,
        "iptables",
        "-D",
        "CNI-FORWARD",
        "-s",
        `${IP4}/32`,
        "-j",
        "ACCEPT",
      ]);
      expect(await del.exited).toBe(0);
      const ours = await call("ours", "CHECK", conf());
      const ref = await call("reference", "CHECK", conf());
      expect(ours.code).toBe(1);
      expect(ref.code).toBe(1);
      expect(JSON.parse(ours.stdout).msg).toBe(JSON.parse(ref.stdout).msg);
    });
  });
});
