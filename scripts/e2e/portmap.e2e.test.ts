/**
 * End-to-end: the chain bridge + portmap run by our runtime (`cni add` with a conflist,
 * NETCONFPATH and CAP_ARGS portMappings) inside a throwaway host namespace, for the
 * iptables and the nftables backends (SPEC.md §8.5, issue 9 item 6): a TCP connection
 * from the host namespace to hostIP:hostPort reaches a server in the container, over
 * IPv4 and IPv6; 127.0.0.1:hostPort does too (route_localnet + masquerade); the
 * container reaches itself through the host's address (hairpin); DEL leaves no rule.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { canUseNetns } from "../lib/netns.ts";
import { BIN_DIR, World, sh } from "./harness.ts";

const root = canUseNetns();
const built = existsSync(join(BIN_DIR, "portmap"));
if (!root && process.env.CI !== "true")
  console.warn("scripts/e2e: not root, skipping portmap's real-kernel end-to-end tests");
else if (!built) console.warn("scripts/e2e: dist/bin/portmap missing: run `npm run build`");
const run = (root || process.env.CI === "true") && built ? describe : describe.skip;

const GREETING = "hello from the container";
const MAPPINGS = [
  { hostPort: 8080, containerPort: 80, protocol: "tcp" },
  { hostPort: 8081, containerPort: 80, protocol: "tcp", hostIP: "198.18.20.1" },
  { hostPort: 5353, containerPort: 53, protocol: "udp" },
];

/** A TCP server in `ns` on every address, port 80, greeting each client and closing. */
function serve(ns: string): Bun.Subprocess {
  const script = `Bun.listen({ hostname: "::", port: 80, socket: { open(s) { s.write(${JSON.stringify(GREETING)}); s.end(); }, data() {} } }); console.log("up");`;
  return Bun.spawn(["ip", "netns", "exec", ns, process.execPath, "-e", script], { stdout: "pipe", stderr: "inherit" });
}

/** Connects from `ns` to host:port with bash's /dev/tcp and returns what the server said (retries while it settles). */
async function fetchGreeting(ns: string, host: string, port: number, tries = 10): Promise<string> {
  let last = "";
  for (let i = 0; i < tries; i++) {
    const r = await sh(ns, ["timeout", "3", "bash", "-c", `exec 3<>/dev/tcp/${host}/${port}; cat <&3`]);
    if (r.code === 0 && r.stdout.includes(GREETING)) return r.stdout;
    last = r.stderr || r.stdout;
    await Bun.sleep(300);
  }
  return last;
}

for (const backend of ["iptables", "nftables"] as const) {
  run(`bridge + portmap (${backend}) through cni add on the real kernel`, () => {
    let w: World;
    let server: Bun.Subprocess | undefined;
    const env = (): Record<string, string> => ({
      PATH: process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin",
      NETCONFPATH: join(w.dir, "net.d"),
      CNI_PATH: BIN_DIR,
      CNI_CACHE_DIR: join(w.dir, "cache"),
      CNI_IFNAME: "eth0",
      CAP_ARGS: JSON.stringify({ portMappings: MAPPINGS }),
    });
    const cni = async (verb: string) => {
      const proc = Bun.spawn(["ip", "netns", "exec", w.host, join(BIN_DIR, "cni"), verb, "pm-e2e", w.netns(0)], {
        env: env(),
        stdout: "pipe",
        stderr: "pipe",
      });
      const [stdout, stderr, code] = await Promise.all([
        new Response(proc.stdout).text(),
        new Response(proc.stderr).text(),
        proc.exited,
      ]);
      return { stdout, stderr, code };
    };

    beforeAll(async () => {
      w = await World.create(`e2e-pm${backend.slice(0, 2)}`, 1);
      mkdirSync(join(w.dir, "net.d"));
      const conflist = {
        cniVersion: "1.0.0",
        name: "pm-e2e",
        plugins: [
          {
            type: "bridge",
            bridge: "tscnipm0",
            isGateway: true,
            hairpinMode: true,
            ipam: {
              type: "host-local",
              ranges: [[{ subnet: "198.18.20.0/24" }], [{ subnet: "2001:db8:20::/64" }]],
              dataDir: join(w.dir, "ipam"),
            },
          },
          { type: "portmap", capabilities: { portMappings: true }, backend },
        ],
      };
      writeFileSync(join(w.dir, "net.d", "10-pm.conflist"), JSON.stringify(conflist));
      server = serve(w.containers[0]!);
      const reader = (server.stdout as ReadableStream<Uint8Array>).getReader();
      await reader.read();
    });
    afterAll(async () => {
      server?.kill();
      await server?.exited;
      await w?.close();
    });

    test("cni add runs the chain and CHECK passes", async () => {
      const add = await cni("add");
      expect(add.stdout + add.stderr).not.toContain('"code"');
      expect(add.code).toBe(0);
      const check = await cni("check");
      expect(check.stdout + check.stderr).toBe("");
      expect(check.code).toBe(0);
    });

    test("a TCP connection from the host namespace to hostIP:hostPort reaches the container, IPv4 and IPv6", async () => {
      expect(await fetchGreeting(w.host, "198.18.20.1", 8080)).toContain(GREETING);
      expect(await fetchGreeting(w.host, "198.18.20.1", 8081)).toContain(GREETING);
      expect(await fetchGreeting(w.host, "2001:db8:20::1", 8080)).toContain(GREETING);
    });

    test("127.0.0.1:hostPort on the host reaches the container (route_localnet and masquerade)", async () => {
      expect(await fetchGreeting(w.host, "127.0.0.1", 8080)).toContain(GREETING);
      expect((await sh(w.host, ["sysctl", "-n", "net.ipv4.conf.tscnipm0.route_localnet"])).stdout.trim()).toBe("1");
    });

    test("hairpin: the container reaches its own hostPort on the host's address", async () => {
      expect(await fetchGreeting(w.containers[0]!, "198.18.20.1", 8080)).toContain(GREETING);
      expect(await fetchGreeting(w.containers[0]!, "2001:db8:20::1", 8080)).toContain(GREETING);
    });

    test("cni del removes every rule of the container, and a second del succeeds", async () => {
      expect((await cni("del")).code).toBe(0);
      const saved =
        (await sh(w.host, ["iptables-save", "-t", "nat"])).stdout +
        (await sh(w.host, ["ip6tables-save", "-t", "nat"])).stdout;
      expect(saved).not.toContain("CNI-DN-");
      expect(saved).not.toContain("DNAT --to-destination");
      const nft = (await sh(w.host, ["nft", "list", "ruleset"])).stdout;
      expect(nft).not.toContain("dnat to");
      expect(nft).not.toContain("masquerade comment");
      expect((await cni("del")).code).toBe(0);
    });
  });
}
