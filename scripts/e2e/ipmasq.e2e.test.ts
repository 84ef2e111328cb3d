/**
 * End-to-end ipMasq (SPEC H-3, H-4): the compiled `bridge` and `ptp` with `ipMasq` on the
 * real kernel, iptables and nftables backends, IPv4 and IPv6. Three kinds of throwaway
 * namespace: the host, a container, and an "outside" joined to the host by a veth. The
 * outside has no route back to the containers' subnets, so a connection from a container
 * succeeds only when masqueraded, and a small server there answers with the peer address
 * it saw, which must be the host's. After DEL no per-container rule is left.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatIptRule, planMasqSetup } from "@tscni/firewall";
import { parseCIDR } from "@tscni/spec/ipnet";
import { canUseNetns } from "../lib/netns.ts";
import { BIN_DIR, World, callPlugin, sh } from "./harness.ts";

const root = canUseNetns();
const built = existsSync(join(BIN_DIR, "bridge")) && existsSync(join(BIN_DIR, "ptp"));
if (!root && process.env.CI === "true")
  throw new Error("scripts/e2e/ipmasq: the real-kernel tests must run under CI: run them as root");
if (!root) console.warn("scripts/e2e/ipmasq: not root, skipping the real-kernel ipMasq tests");
else if (!built) console.warn("scripts/e2e/ipmasq: dist/bin/bridge or ptp missing: run `npm run build`");
const run = root && built ? describe : describe.skip;

const BUN = process.execPath;
const PORT = 18080;
const HOST_V4 = "198.18.40.1";
const OUT_V4 = "198.18.40.2";
const HOST_V6 = "2001:db8:40::1";
const OUT_V6 = "2001:db8:40::2";

/** The server in the outside namespace: answers every request with the peer address it saw. */
const SERVER = `const s = Bun.serve({ hostname: "::", port: ${PORT}, fetch: (req, srv) => new Response(srv.requestIP(req)?.address ?? "?") }); console.log("ready");`;

function netConfig(plugin: "bridge" | "ptp", backend: string, dataDir: string): object {
  const ranges = [[{ subnet: "198.18.41.0/24" }], [{ subnet: "2001:db8:41::/64" }]];
  const routes = [{ dst: "0.0.0.0/0" }, { dst: "::/0" }];
  const l2 = plugin === "bridge" ? { bridge: "tscnimasq0", isGateway: true, isDefaultGateway: true } : {};
  return {
    cniVersion: "1.1.0",
    name: `masq-${plugin}`,
    type: plugin,
    ...l2,
    ipMasq: true,
    ipMasqBackend: backend,
    ipam: { type: "host-local", ranges, dataDir, ...(plugin === "ptp" ? { routes } : {}) },
  };
}

/** What the container sees as its source address at the outside server, retried while IPv6 DAD settles. */
async function peerSeen(ns: string, url: string, tries = 20): Promise<string> {
  let last = "";
  for (let i = 0; i < tries; i++) {
    const r = await sh(ns, ["curl", "-s", "-g", "--max-time", "2", url]);
    if (r.code === 0) return r.stdout.trim().replace(/^::ffff:/, "");
    last = `curl exit ${r.code} ${r.stderr}`;
    await Bun.sleep(250);
  }
  return last;
}

async function must(ns: string, cmd: string[]): Promise<string> {
  const r = await sh(ns, cmd);
  if (r.code !== 0) throw new Error(`${cmd.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

run("ipMasq on the real kernel", () => {
  let w: World;
  let server: ReturnType<typeof Bun.spawn> | undefined;
  let outside = "";

  beforeAll(async () => {
    w = await World.create("e2e-masq", 2);
    outside = w.containers[1]!;
    // The outside: a veth to the host namespace, no route back to the containers' subnets.
    await must(w.host, ["ip", "link", "add", "up0", "type", "veth", "peer", "name", "out0", "netns", outside]);
    await must(w.host, ["ip", "addr", "add", `${HOST_V4}/24`, "dev", "up0"]);
    await must(w.host, ["ip", "addr", "add", `${HOST_V6}/64`, "dev", "up0", "nodad"]);
    await must(w.host, ["ip", "link", "set", "up0", "up"]);
    await must(outside, ["ip", "addr", "add", `${OUT_V4}/24`, "dev", "out0"]);
    await must(outside, ["ip", "addr", "add", `${OUT_V6}/64`, "dev", "out0", "nodad"]);
    await must(outside, ["ip", "link", "set", "out0", "up"]);
    server = Bun.spawn(["ip", "netns", "exec", outside, BUN, "-e", SERVER], { stdout: "pipe", stderr: "inherit" });
    const reader = (server.stdout as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    reader.releaseLock();
    if (!new TextDecoder().decode(first.value).includes("ready")) throw new Error("the outside server did not start");
  });

  afterAll(async () => {
    server?.kill();
    await server?.exited;
    await w.close();
  });

  test("without ipMasq the outside cannot answer: the test setup needs masquerading", async () => {
    const config = { ...netConfig("bridge", "iptables", join(w.dir, "ipam")), ipMasq: false };
    const call = (command: "ADD" | "DEL") =>
      callPlugin(w.host, { plugin: "bridge", command, containerID: "masq-control", netns: w.netns(0), config });
    expect((await call("ADD")).code).toBe(0);
    try {
      expect(await peerSeen(w.containers[0]!, `http://${OUT_V4}:${PORT}/`, 2)).toStartWith("curl exit");
    } finally {
      expect((await call("DEL")).code).toBe(0);
    }
  });

  test("cni plan prints the masquerade rules after the kernel script, and changes nothing", async () => {
    const confDir = join(w.dir, "net.d");
    mkdirSync(confDir, { recursive: true });
    const net = { ...netConfig("bridge", "iptables", join(w.dir, "ipam")), name: "masqplan" };
    writeFileSync(join(confDir, "10-masqplan.conf"), JSON.stringify(net));
    const nat = async () => (await must(w.host, ["iptables-save", "-t", "nat"])).replace(/^#.*\n/gm, "");
    const before = await nat();
    const out = await must(w.host, [
      "env",
      `NETCONFPATH=${confDir}`,
      join(BIN_DIR, "cni"),
      "plan",
      "masqplan",
      w.netns(0),
    ]);
    const [kernel, firewall] = out.split("# firewall\n");
    expect(kernel).toContain("type veth");
    expect(firewall).toMatch(
      /^iptables -t nat -A POSTROUTING -s 198\.18\.41\.\d+\/32 -m comment --comment "name: \\"masqplan\\" id: \\"cnitool-[0-9a-f]+\\"" -j CNI-[0-9a-f]{24} {2}# unless present$/m,
    );
    expect(firewall).toContain("ip6tables -t nat -A CNI-");
    expect(await nat()).toBe(before);
  });

  for (const plugin of ["bridge", "ptp"] as const) {
    for (const backend of ["iptables", "nftables"] as const) {
      test(`${plugin} on ${backend}: the outside sees the host's address over IPv4 and IPv6, and DEL leaves no rule`, async () => {
        const config = netConfig(plugin, backend, join(w.dir, "ipam"));
        const call = (command: "ADD" | "DEL") =>
          callPlugin(w.host, { plugin, command, containerID: `masq-${plugin}-${backend}`, netns: w.netns(0), config });
        const add = await call("ADD");
        expect(add.stdout).not.toContain('"code"');
        expect(add.code).toBe(0);
        try {
          expect(await peerSeen(w.containers[0]!, `http://${OUT_V4}:${PORT}/`)).toBe(HOST_V4);
          expect(await peerSeen(w.containers[0]!, `http://[${OUT_V6}]:${PORT}/`)).toBe(HOST_V6);
          // What we planned is what the tools print back, token for token: the backend
          // finds rules (ours and the reference's) by this text.
          const ips = (JSON.parse(add.stdout) as { ips: { address: string }[] }).ips.map(
            (ip) => parseCIDR(ip.address)!,
          );
          const planned = planMasqSetup(backend, ips, `masq-${plugin}`, "eth0", `masq-${plugin}-${backend}`);
          const saved = `${await must(w.host, ["iptables-save", "-t", "nat"])}${await must(w.host, ["ip6tables-save", "-t", "nat"])}`;
          const listed = (await sh(w.host, ["nft", "list", "table", "inet", "cni_plugins_masquerade"])).stdout;
          for (const op of planned) {
            if (op.op === "ipt.rule.append") expect(saved).toContain(`-A ${op.chain} ${formatIptRule(op.rule)}\n`);
            if (op.op === "nft.rule.add")
              expect(listed).toContain(`${op.rule}${op.comment === undefined ? "" : ` comment "${op.comment}"`}\n`);
          }
        } finally {
          const del = await call("DEL");
          expect(del.stdout + del.stderr).toBe("");
          expect(del.code).toBe(0);
        }
        for (const save of ["iptables-save", "ip6tables-save"])
          expect(await must(w.host, [save, "-t", "nat"])).not.toContain("CNI-");
        const nft = await sh(w.host, ["nft", "list", "chain", "inet", "cni_plugins_masquerade", "masq_checks"]);
        expect(nft.stdout).not.toContain("saddr");
      });
    }
  }
});
