/**
 * End-to-end: the nftables paths of our own plugins run no `nft` process (H-3, §8.5,
 * §8.1 macspoofchk). The compiled portmap (`backend: nftables`: ADD, a second ADD,
 * CHECK, DEL, DEL again) and bridge (`ipMasqBackend: nftables` with `macspoofchk`: ADD,
 * CHECK, DEL, DEL again) run under `strace -f -e trace=execve` in throwaway namespaces;
 * every program they exec is recorded. The same calls through `TSCNI_NFT_TRANSPORT=nft`
 * (which runs `nft` for everything) must leave the very same `nft -a list table` text.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { canUseNetns } from "../lib/netns.ts";
import { successfulExecs, type Transport, traced } from "./exec-trace.ts";
import { BIN_DIR, World, sh } from "./harness.ts";

const root = canUseNetns();
const built = ["portmap", "bridge", "host-local"].every((p) => existsSync(join(BIN_DIR, p)));
const strace = Bun.which("strace") !== null;
if (!root && process.env.CI === "true") throw new Error("scripts/e2e/nft-noexec: must run under CI: run it as root");
if (!root) console.warn("scripts/e2e/nft-noexec: not root, skipping the process-count tests");
else if (!built) console.warn("scripts/e2e/nft-noexec: dist/bin missing: run `npm run build`");
else if (!strace) throw new Error("scripts/e2e/nft-noexec: strace is missing (apt-get install strace)");
const run = root && built ? describe : describe.skip;

test("the strace reader counts successful execs, split ones too, and skips failed PATH lookups", () => {
  const log = [
    '10 execve("/bin/portmap", ["portmap"], 0x1 /* 7 vars */) = 0',
    '11 execve("/usr/local/sbin/nft", ["nft"], 0x2 /* 8 vars */) = -1 ENOENT (No such file or directory)',
    '11 execve("/usr/sbin/nft", ["nft", "-f", "-"], 0x2 /* 8 vars */ <unfinished ...>',
    "12 +++ exited with 0 +++",
    "11 <... execve resumed>) = 0",
    '13 execve("/usr/sbin/iptables-save", ["iptables-save"], 0x3 /* 8 vars */) = 0',
  ].join("\n");
  expect(successfulExecs(log)).toEqual(["nft", "iptables-save"]);
});

/** `nft -a list table` in the host namespace, or "" when the table is gone. */
async function listTable(w: World, family: string, table: string): Promise<string> {
  return (await sh(w.host, ["nft", "-a", "list", "table", family, table])).stdout;
}

const PM_MAPPINGS = [
  { hostPort: 8080, containerPort: 80, protocol: "tcp", hostIP: "" },
  { hostPort: 5353, containerPort: 53, protocol: "udp", hostIP: "198.18.50.1" },
  { hostPort: 8443, containerPort: 443, protocol: "tcp", hostIP: "2001:db8:50::1" },
];

function portmapConfig(n: number, backend: string | null = "nftables"): object {
  return {
    cniVersion: "1.0.0",
    name: "pm-noexec",
    type: "portmap",
    ...(backend !== null && { backend }),
    snat: true,
    runtimeConfig: { portMappings: PM_MAPPINGS },
    prevResult: {
      cniVersion: "1.0.0",
      interfaces: [{ name: "eth0", sandbox: "/var/run/netns/c" }],
      ips: [
        { address: `198.18.50.${n}/24`, interface: 0 },
        { address: `2001:db8:50::${n}/64`, interface: 0 },
      ],
    },
  };
}

/** Everything one transport did: the execs per call and the listings after ADD and after DEL. */
interface Run {
  execs: Record<string, string[]>;
  afterAdd: string;
  afterDel: string;
}

async function portmapRun(w: World, transport: Transport): Promise<Run> {
  const execs: Record<string, string[]> = {};
  const call = async (label: string, command: string, cid: string, n: number) => {
    const r = await traced(w, transport, "portmap", command, cid, portmapConfig(n));
    expect(`${label}: ${r.code} ${r.stdout.includes('"code"') ? r.stdout : ""}`).toBe(`${label}: 0 `);
    execs[label] = r.execs;
  };
  const tables = async () => (await listTable(w, "ip", "cni_hostport")) + (await listTable(w, "ip6", "cni_hostport"));
  await call("ADD c1", "ADD", "c1", 5);
  await call("ADD c2", "ADD", "c2", 6);
  await call("CHECK c2", "CHECK", "c2", 6);
  const afterAdd = await tables();
  await call("DEL c1", "DEL", "c1", 5);
  await call("DEL c2", "DEL", "c2", 6);
  await call("DEL c2 again", "DEL", "c2", 6);
  return { execs, afterAdd, afterDel: await tables() };
}

function bridgeConfig(w: World): object {
  return {
    cniVersion: "1.0.0",
    name: "br-noexec",
    type: "bridge",
    bridge: "tscninx0",
    isGateway: true,
    ipMasq: true,
    ipMasqBackend: "nftables",
    macspoofchk: true,
    ipam: {
      type: "host-local",
      ranges: [[{ subnet: "198.18.51.0/24" }], [{ subnet: "2001:db8:51::/64" }]],
      dataDir: join(w.dir, "ipam"),
    },
  };
}

/** The host veth's name and the container's MAC are random per run: named, not compared. */
const stable = (text: string): string =>
  text.replace(/veth[0-9a-f]{8}/g, "VETH").replace(/ether saddr [0-9a-f:]{17}/g, "ether saddr MAC");

async function bridgeRun(w: World, transport: Transport): Promise<Run> {
  const execs: Record<string, string[]> = {};
  const tables = async () =>
    stable((await listTable(w, "inet", "cni_plugins_masquerade")) + (await listTable(w, "bridge", "nat")));
  const add = await traced(w, transport, "bridge", "ADD", "b1", bridgeConfig(w));
  expect(add.stdout).not.toContain('"code"');
  execs.ADD = add.execs;
  const check = await traced(w, transport, "bridge", "CHECK", "b1", {
    ...bridgeConfig(w),
    prevResult: JSON.parse(add.stdout),
  });
  expect(check.stdout).toBe("");
  execs.CHECK = check.execs;
  const afterAdd = await tables();
  for (const label of ["DEL", "DEL again"]) {
    const del = await traced(w, transport, "bridge", "DEL", "b1", bridgeConfig(w));
    expect(`${label}: ${del.code} ${del.stdout}`).toBe(`${label}: 0 `);
    execs[label] = del.execs;
  }
  return { execs, afterAdd, afterDel: await tables() };
}

run("no nft process on our plugins' nftables paths", () => {
  const worlds: World[] = [];
  const runs = new Map<string, Run>();

  beforeAll(async () => {
    for (const plugin of ["portmap", "bridge"] as const)
      for (const transport of ["nfnetlink", "nft"] as const) {
        const w = await World.create(`e2e-nx${plugin.slice(0, 2)}${transport.slice(0, 3)}`, 1);
        worlds.push(w);
        runs.set(`${plugin} ${transport}`, await (plugin === "portmap" ? portmapRun : bridgeRun)(w, transport));
      }
  });
  afterAll(async () => {
    for (const w of worlds) await w.close();
  });

  test("portmap ADD, CHECK and DEL with the nftables backend exec nothing at all", () => {
    const r = runs.get("portmap nfnetlink") as Run;
    expect(Object.keys(r.execs)).toHaveLength(6);
    expect(r.execs).toEqual(Object.fromEntries(Object.keys(r.execs).map((k) => [k, []])));
    // The counter counts: the nft transport runs nft on every call that touches a table.
    expect((runs.get("portmap nft") as Run).execs["ADD c1"]).toContain("nft");
  });

  test("portmap leaves the same nft listing, handles included, as the nft transport", () => {
    const [ours, theirs] = [runs.get("portmap nfnetlink") as Run, runs.get("portmap nft") as Run];
    expect(ours.afterAdd).toContain("dnat to [2001:db8:50::6]:443");
    expect(ours.afterAdd).toBe(theirs.afterAdd);
    expect(ours.afterDel).toBe(theirs.afterDel);
  });

  test("bridge with ipMasq and macspoofchk on nftables runs no nft in ADD, CHECK or DEL", () => {
    const r = runs.get("bridge nfnetlink") as Run;
    expect(Object.keys(r.execs)).toEqual(["ADD", "CHECK", "DEL", "DEL again"]);
    for (const [label, execs] of Object.entries(r.execs))
      expect(`${label}: ${execs.filter((e) => e === "nft")}`).toBe(`${label}: `);
    expect((runs.get("bridge nft") as Run).execs.ADD).toContain("nft");
  });

  test("bridge leaves the same nft listing, handles included, as the nft transport", () => {
    const [ours, theirs] = [runs.get("bridge nfnetlink") as Run, runs.get("bridge nft") as Run];
    expect(ours.afterAdd).toContain("masquerade comment");
    expect(ours.afterAdd).toContain("ether saddr MAC return");
    expect(ours.afterAdd).toBe(theirs.afterAdd);
    expect(ours.afterDel).toBe(theirs.afterDel);
  });
});

run("portmap without a backend decides it without running iptables", () => {
  let w: World;
  beforeAll(async () => {
    w = await World.create("e2e-nxauto", 1);
  });
  afterAll(async () => {
    await w.close();
  });

  test("ADD and DEL pick iptables (it works here, H-3 §8.5) and run only its restore and save tools", async () => {
    for (const command of ["ADD", "DEL"]) {
      const r = await traced(w, "nfnetlink", "portmap", command, "a1", portmapConfig(5, null));
      expect(`${command}: ${r.code}`).toBe(`${command}: 0`);
      // go-iptables would run `iptables --version` and `iptables -t filter -S INPUT 1`; iptables-nft is asked in process.
      expect(r.execs).not.toContain("iptables");
      expect(r.execs).toContain("iptables-restore");
      if (command === "ADD") expect((await sh(w.host, ["iptables-save", "-t", "nat"])).stdout).toContain("-j CNI-DN-");
    }
  });
});
