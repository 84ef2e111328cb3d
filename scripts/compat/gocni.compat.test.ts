/**
 * containerd's CNI library (go-cni, Debian's golang-github-containerd-go-cni-dev) on our
 * plugins and on the reference's: `go/gocni` sets up, checks and removes a pod's networks
 * as containerd's CRI does (loopback plus the default network of a config dir, the pod's
 * labels as CNI_ARGS, port mappings and bandwidth as capabilities), once per twin side,
 * each in its own throwaway host namespace with its own /var/lib/cni (a bind mount in a
 * private mount namespace: go-cni has no cache-dir option). The results, the kernel
 * state, the firewall rules and tc's qdiscs must be alike after setup and after removal,
 * and removal must leave no link, rule, reservation or cached result.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  GOCODE,
  OUR_BIN_DIR,
  REFERENCE_PLUGINS,
  announceSkip,
  buildGo,
  canonical,
  run,
  type Run,
} from "./_reference.ts";
import { expectSameState, twinSkipReason } from "./_diff.ts";
import { SIDES, Twin, normalizeText, type Side, type SideCtx } from "./_twin.ts";

const GOCNI_SRC = join(GOCODE, "src/github.com/containerd/go-cni");
const skip =
  twinSkipReason() ??
  (existsSync(GOCNI_SRC) ? undefined : `missing ${GOCNI_SRC} (apt-get install golang-github-containerd-go-cni-dev)`);
// Under CI it never skips: a missing piece fails it loudly.
const ci = process.env.CI === "true";
announceSkip("gocni.compat.test.ts", ci ? undefined : skip);
if (ci && skip !== undefined) console.warn(`[compat] gocni.compat.test.ts: ${skip} (CI: running anyway, so it fails)`);
const suite = skip === undefined || ci ? describe : describe.skip;

/** Plugins containerd's default network chains that tscni may not have yet: then the reference's. */
const CHAINED = ["portmap", "bandwidth"] as const;
const ID = "a1b2c3d4e5f6tscnigocni";
const SUBNET = "198.18.50.0/24";
const PORTS = JSON.stringify([{ HostPort: 8080, ContainerPort: 80, Protocol: "tcp", HostIP: "" }]);
const BANDWIDTH = JSON.stringify({
  IngressRate: 1_000_000,
  IngressBurst: 100_000,
  EgressRate: 2_000_000,
  EgressBurst: 200_000,
});

/** containerd's sample default network (10-containerd-net.conflist), on a test subnet. */
const CONFLIST = {
  cniVersion: "1.0.0",
  name: "containerd-net",
  plugins: [
    {
      type: "bridge",
      bridge: "cni0",
      isGateway: true,
      ipMasq: true,
      promiscMode: true,
      ipam: { type: "host-local", ranges: [[{ subnet: SUBNET }]], routes: [{ dst: "0.0.0.0/0" }] },
    },
    { type: "portmap", capabilities: { portMappings: true } },
    { type: "bandwidth", capabilities: { bandwidth: true } },
  ],
};

/** Per side: plugin dir, config dir, and what it sees as /var/lib/cni. */
interface Dirs {
  bin: string;
  conf: string;
  state: string;
}

suite("containerd's CNI library runs pods alike on our plugins and on the reference's", () => {
  let twin: Twin;
  let prog: string;
  const dirs = {} as Record<Side, Dirs>;
  const standins: string[] = [];

  beforeAll(async () => {
    prog = buildGo("gocni");
    twin = await Twin.create("gocni", 1);
    mkdirSync("/var/lib/cni", { recursive: true }); // the mount point; the reference plugins make it too
    for (const side of SIDES) {
      const s = twin.sides[side];
      const d: Dirs = {
        bin: REFERENCE_PLUGINS,
        conf: join(s.world.dir, "net.d"),
        state: join(s.world.dir, "var-lib-cni"),
      };
      mkdirSync(d.conf, { recursive: true });
      mkdirSync(join(d.state, "networks"), { recursive: true });
      writeFileSync(join(d.conf, "10-containerd-net.conflist"), JSON.stringify(CONFLIST));
      if (side === "ours") {
        d.bin = join(s.world.dir, "bin");
        mkdirSync(d.bin);
        for (const p of ["bridge", "host-local", "loopback"]) symlinkSync(join(OUR_BIN_DIR, p), join(d.bin, p));
        for (const p of CHAINED) {
          const ours = existsSync(join(OUR_BIN_DIR, p));
          if (!ours) standins.push(p);
          symlinkSync(ours ? join(OUR_BIN_DIR, p) : join(REFERENCE_PLUGINS, p), join(d.bin, p));
        }
      }
      s.bin = d.bin;
      s.dataDir = join(d.state, "networks"); // host-local's default dataDir, as containerd's config leaves it
      dirs[side] = d;
    }
    if (standins.length > 0)
      console.warn(
        `[compat] gocni: chaining the reference's ${standins.join(", ")} after our bridge until tscni has them`,
      );
  }, 240_000);

  afterAll(async () => {
    await twin?.close();
  }, 60_000);

  /** Runs gocni on one side, in its host namespace, with its /var/lib/cni. */
  function gocni(side: Side, op: string): Promise<Run> {
    const s = twin.sides[side];
    const d = dirs[side];
    const mountState =
      'm=$(findmnt -n -o TARGET --target /var/lib/cni) && mount --make-private "$m" && mount --bind "$0" /var/lib/cni && exec "$@"';
    const args = [
      "-op",
      op,
      "-bin",
      d.bin,
      "-conf",
      d.conf,
      "-id",
      ID,
      "-netns",
      s.netns(0),
      "-ports",
      PORTS,
      "-bandwidth",
      BANDWIDTH,
    ];
    return run([
      "unshare",
      "-m",
      "--propagation",
      "unchanged",
      "nsenter",
      `--net=${s.hostPath}`,
      "sh",
      "-c",
      mountState,
      d.state,
      prog,
      ...args,
    ]);
  }

  /** gocni on both sides at once, each output normalised. */
  async function both(op: string): Promise<Record<Side, { code: number; out: unknown; stderr: string }>> {
    const outs = await Promise.all(SIDES.map((side) => gocni(side, op)));
    const norm = (side: Side, r: Run) => {
      const text = normalizeText(twin.sides[side], r.stdout.trim());
      let out: unknown = text;
      try {
        out = canonical(JSON.parse(text));
      } catch {
        // not JSON: compared as text
      }
      return { code: r.code, out, stderr: r.stderr };
    };
    return { reference: norm("reference", outs[0]!), ours: norm("ours", outs[1]!) };
  }

  /** The host's firewall rules and qdiscs, without counters and comment lines. */
  async function hostRules(side: Side): Promise<{ ipv4: string[]; tc: string[] }> {
    const s = twin.sides[side];
    const save = await run(["ip", "netns", "exec", s.world.host, "iptables-save"]);
    const ipv4 = save.stdout
      .split("\n")
      .filter((l) => l !== "" && !l.startsWith("#"))
      .map((l) => l.replace(/\[\d+:\d+\]/, "[0:0]"));
    const tc = await run(["ip", "netns", "exec", s.world.host, "tc", "qdisc", "show"]);
    const lines = tc.stdout.split("\n").filter((l) => l.trim() !== "" && !/\bnoqueue\b/.test(l));
    return { ipv4, tc: lines.map((l) => normalizeText(s, l)).sort() };
  }

  function leftovers(side: Side): string[] {
    const out: string[] = [];
    const walk = (dir: string, rel: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(dir, e.name), `${rel}${e.name}/`);
        else out.push(`${rel}${e.name}`);
      }
    };
    walk(dirs[side].state, "");
    return out.sort();
  }

  test("Setup answers alike: loopback and the default network, with port mappings and bandwidth as capabilities", async () => {
    const r = await both("setup");
    expect(r.reference.code).toBe(0);
    expect(r.ours).toEqual(r.reference);
    const raw = (r.ours.out as { raw: { ips?: { address: string }[] }[] }).raw;
    expect(raw.length).toBe(2); // loopback, then the default network
    expect(raw[1]?.ips?.[0]?.address.startsWith("198.18.50.")).toBe(true);
  });

  test("after Setup both kernels, firewalls and qdiscs are alike, and the pod answers from the host", async () => {
    await expectSameState(twin, "setup");
    const [ref, ours] = await Promise.all([hostRules("reference"), hostRules("ours")]);
    expect(ours).toEqual(ref);
    expect(ref.ipv4.some((l) => l.includes("DNAT") && l.includes("8080"))).toBe(true);
    expect(ref.tc.some((l) => l.includes("tbf"))).toBe(true);
    const ping = await run([
      "ip",
      "netns",
      "exec",
      twin.sides.ours.world.host,
      "ping",
      "-c",
      "1",
      "-W",
      "3",
      "198.18.50.2",
    ]);
    expect(ping.code).toBe(0);
  });

  test("Check answers alike: libcni refuses it, as go-cni's loopback network is 0.3.1 (why containerd's CRI never checks)", async () => {
    const r = await both("check");
    expect(r.reference).toEqual({
      code: 1,
      out: { error: 'configuration version "0.3.1" does not support the CHECK command' },
      stderr: "",
    });
    expect(r.ours).toEqual(r.reference);
  });

  test("Remove answers alike and leaves no link, rule, qdisc, reservation or cached result, twice", async () => {
    for (const round of [1, 2]) {
      const r = await both("remove");
      expect({ round, ...r.reference }).toMatchObject({ round, code: 0 });
      expect({ round, ...r.ours }).toEqual({ round, ...r.reference });
    }
    await expectSameState(twin, "remove");
    const [ref, ours] = await Promise.all([hostRules("reference"), hostRules("ours")]);
    expect(ours).toEqual(ref);
    for (const side of SIDES) {
      const rules = side === "ours" ? ours : ref;
      expect({
        side,
        rules: rules.ipv4.filter((l) => l.startsWith("-A") && (l.includes(ID) || l.includes("198.18.50."))),
      }).toEqual({ side, rules: [] });
      expect({ side, qdiscs: rules.tc.filter((l) => l.includes("tbf")) }).toEqual({ side, qdiscs: [] });
      const links = await run(["ip", "-n", twin.sides[side].world.host, "-o", "link", "show"]);
      expect({ side, veth: /veth|bwp/.test(links.stdout) }).toEqual({ side, veth: false });
      // host-local keeps its lock and last_reserved_ip (the reference's layout); nothing else.
      const left = leftovers(side).filter((f) => !/^networks\/containerd-net\/(lock|last_reserved_ip\.0)$/.test(f));
      expect({ side, left }).toEqual({ side, left: [] });
    }
  });
});
