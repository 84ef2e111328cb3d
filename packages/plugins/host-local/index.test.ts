/**
 * host-local through the plugin framework, in process: every command per version family,
 * requested IPs from all three sources, and the exact bytes on disk (§8.3 layout), so
 * that the reference host-local and this one can share a data dir.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pluginMain } from "@tscni/skel";
import { definition } from "./index.ts";

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "tscni-host-local-"));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

interface Run {
  code: number;
  out: unknown;
}

async function run(
  command: string,
  conf: Record<string, unknown>,
  opts: { cid?: string; ifname?: string; args?: string } = {},
): Promise<Run> {
  const chunks: string[] = [];
  const code = await pluginMain(definition, {
    env: {
      CNI_COMMAND: command,
      CNI_CONTAINERID: opts.cid ?? "cid1",
      CNI_NETNS: "/var/run/netns/tscni-none",
      CNI_IFNAME: opts.ifname ?? "eth0",
      CNI_ARGS: opts.args ?? "",
      CNI_PATH: "/opt/cni/bin",
    },
    readStdin: async () => new TextEncoder().encode(JSON.stringify(conf)),
    stdout: (s) => chunks.push(s),
    stderr: () => {},
  });
  const text = chunks.join("");
  return { code, out: text === "" ? undefined : JSON.parse(text) };
}

function netconf(
  cniVersion: string,
  ipam: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    cniVersion,
    name: "net1",
    type: "bridge",
    ipam: { type: "host-local", subnet: "198.18.0.0/24", dataDir, ...ipam },
    ...extra,
  };
}

const store = () => join(dataDir, "net1");
const files = () =>
  readdirSync(store())
    .filter((n) => !n.startsWith("."))
    .sort();

describe("ADD prints the abbreviated IPAM result in the config's version (RI-1)", () => {
  test("0.1.0 and 0.2.0: ip4 with gateway, routes nested, dns always present", async () => {
    for (const v of ["0.1.0", "0.2.0"]) {
      const r = await run("ADD", netconf(v, { routes: [{ dst: "0.0.0.0/0" }] }), { cid: `c-${v}` });
      expect(r.code).toBe(0);
      expect(r.out).toEqual({
        cniVersion: v,
        ip4: {
          ip: expect.stringMatching(/^198\.18\.0\.\d+\/24$/),
          gateway: "198.18.0.1",
          routes: [{ dst: "0.0.0.0/0" }],
        },
        dns: {},
      });
    }
  });

  test("0.3.0 to 0.4.0: ips with version, no interface index", async () => {
    for (const v of ["0.3.0", "0.3.1", "0.4.0"]) {
      const r = await run("ADD", netconf(v), { cid: `c-${v}` });
      expect(r.out).toEqual({
        cniVersion: v,
        ips: [{ version: "4", address: expect.stringMatching(/\/24$/), gateway: "198.18.0.1" }],
        dns: {},
      });
    }
  });

  test("1.0.0 and 1.1.0: dual stack, routes verbatim, dns from resolvConf", async () => {
    const resolv = join(dataDir, "resolv.conf");
    writeFileSync(resolv, "nameserver 198.18.0.53\nsearch example.test\n");
    for (const v of ["1.0.0", "1.1.0"]) {
      const ipam = {
        subnet: undefined,
        ranges: [[{ subnet: "198.18.0.0/24" }], [{ subnet: "2001:db8::/64" }]],
        routes: [{ dst: "2001:db8:1::/48" }],
        resolvConf: resolv,
      };
      const r = await run("ADD", netconf(v, ipam), { cid: `c-${v}` });
      expect(r.out).toEqual({
        cniVersion: v,
        ips: [
          { address: expect.stringMatching(/^198\.18\.0\.\d+\/24$/), gateway: "198.18.0.1" },
          { address: expect.stringMatching(/^2001:db8::\d+\/64$/), gateway: "2001:db8::1" },
        ],
        routes: [{ dst: "2001:db8:1::/48" }],
        dns: { nameservers: ["198.18.0.53"], search: ["example.test"] },
      });
    }
  });

  test("a missing resolvConf fails ADD and reserves nothing", async () => {
    const r = await run("ADD", netconf("1.1.0", { resolvConf: join(dataDir, "missing.conf") }));
    expect(r.code).toBe(1);
    expect(readdirSync(dataDir)).toEqual([]);
  });
});

describe("the store on disk (§8.3 On-disk layout)", () => {
  test("holds one 0600 file per IP with `<cid>\\r\\n<ifname>`, last_reserved_ip and lock, in a 0755 directory", async () => {
    await run("ADD", netconf("1.1.0"), { cid: "abc123", ifname: "net0" });
    expect(files()).toEqual(["198.18.0.2", "last_reserved_ip.0", "lock"]);
    expect(readFileSync(join(store(), "198.18.0.2"), "utf8")).toBe("abc123\r\nnet0");
    expect(statSync(join(store(), "198.18.0.2")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(store(), "last_reserved_ip.0"), "utf8")).toBe("198.18.0.2");
    expect(statSync(store()).mode & 0o777).toBe(0o755);
  });

  test("continues after a last_reserved_ip the reference wrote, and skips addresses it reserved", async () => {
    await run("ADD", netconf("1.1.0"), { cid: "first" });
    writeFileSync(join(store(), "last_reserved_ip.0"), "198.18.0.40", { mode: 0o600 });
    writeFileSync(join(store(), "198.18.0.41"), "reference-cid\r\neth0", { mode: 0o600 });
    const r = await run("ADD", netconf("1.1.0"), { cid: "second" });
    expect(r.out).toMatchObject({ ips: [{ address: "198.18.0.42/24" }] });
  });

  test("DEL and CHECK understand reservations the reference wrote, legacy ID-only ones included", async () => {
    await run("ADD", netconf("1.1.0"));
    writeFileSync(join(store(), "198.18.0.99"), "old-container", { mode: 0o600 });
    expect((await run("CHECK", netconf("1.1.0"), { cid: "old-container", ifname: "eth7" })).code).toBe(0);
    expect((await run("DEL", netconf("1.1.0"), { cid: "old-container", ifname: "eth7" })).code).toBe(0);
    expect(files()).toEqual(["198.18.0.2", "last_reserved_ip.0", "lock"]);
  });
});

describe("requested IPs (CA-2)", () => {
  test("come from CNI_ARGS IP, args.cni.ips and runtimeConfig.ips, merged", async () => {
    const ipam = {
      subnet: undefined,
      ranges: [[{ subnet: "198.18.0.0/24" }], [{ subnet: "198.18.1.0/24" }], [{ subnet: "2001:db8::/64" }]],
    };
    const conf = netconf("1.1.0", ipam, {
      args: { cni: { ips: ["198.18.1.77/24"] } },
      runtimeConfig: { ips: ["2001:db8::77"] },
    });
    const r = await run("ADD", conf, { args: "IgnoreUnknown=1;IP=198.18.0.77;K8S_POD_NAME=web" });
    expect(r.out).toMatchObject({
      ips: [{ address: "198.18.0.77/24" }, { address: "198.18.1.77/24" }, { address: "2001:db8::77/64" }],
    });
  });

  test("fail as upstream for the gateway, a taken address, and one outside every range", async () => {
    expect((await run("ADD", netconf("1.1.0"), { args: "IP=198.18.0.1" })).out).toMatchObject({
      msg: "failed to allocate for range 0: requested ip 198.18.0.1 is subnet's gateway",
    });
    await run("ADD", netconf("1.1.0"), { cid: "a", args: "IP=198.18.0.9" });
    expect((await run("ADD", netconf("1.1.0"), { cid: "b", args: "IP=198.18.0.9" })).out).toMatchObject({
      msg: "failed to allocate for range 0: requested IP address 198.18.0.9 is not available in range set 198.18.0.1-198.18.0.254",
    });
    expect(
      (await run("ADD", netconf("1.1.0", {}, { runtimeConfig: { ips: ["198.19.0.1"] } }), { cid: "c" })).out,
    ).toMatchObject({
      msg: "failed to allocate all requested IPs: 198.19.0.1",
    });
    expect(files()).toEqual(["198.18.0.9", "last_reserved_ip.0", "lock"]);
  });

  test("a bad CNI_ARGS fails ADD and DEL alike (CA-6)", async () => {
    for (const cmd of ["ADD", "DEL"]) {
      // v1.1.1 (Debian) differs: code 999; SPEC §4.2 gives code 4 (invalid environment variables)
      expect((await run(cmd, netconf("1.1.0"), { args: "IP=nope" })).out).toMatchObject({
        code: 4,
        msg: 'ARGS: error parsing value of pair "IP=nope": invalid IP address nope',
      });
      expect((await run(cmd, netconf("1.1.0"), { args: "FOO=1" })).out).toMatchObject({
        code: 4,
        msg: 'ARGS: unknown args ["FOO=1"]',
      });
    }
  });
});

describe("DEL and CHECK", () => {
  test("DEL releases, is idempotent, and keeps last_reserved_ip (0.2.0 and 1.1.0)", async () => {
    for (const v of ["0.2.0", "1.1.0"]) {
      await run("ADD", netconf(v));
      expect(await run("DEL", netconf(v))).toEqual({ code: 0, out: undefined });
      expect(await run("DEL", netconf(v))).toEqual({ code: 0, out: undefined });
      expect(files()).toEqual(["last_reserved_ip.0", "lock"]);
    }
  });

  test("a bad config fails DEL", async () => {
    // v1.1.1 (Debian) differs: code 999; SPEC §4.2 gives code 7 (invalid network config)
    expect((await run("DEL", netconf("1.1.0", { subnet: "198.18.0.0/31" }))).out).toMatchObject({
      code: 7,
      msg: "invalid range set 0: Network 198.18.0.0/31 too small to allocate from",
    });
  });

  test("CHECK passes after ADD and fails after DEL (0.4.0 and 1.1.0)", async () => {
    for (const v of ["0.4.0", "1.1.0"]) {
      await run("ADD", netconf(v));
      expect((await run("CHECK", netconf(v))).code).toBe(0);
      await run("DEL", netconf(v));
      expect((await run("CHECK", netconf(v))).out).toMatchObject({
        msg: "host-local: Failed to find address added by container cid1",
      });
    }
  });
});

describe("GC (§1.7)", () => {
  test("releases what is not in cni.dev/valid-attachments and keeps lock and last_reserved_ip", async () => {
    for (const [cid, ifname] of [
      ["keep", "eth0"],
      ["keep", "eth1"],
      ["gone", "eth0"],
    ] as const)
      await run("ADD", netconf("1.1.0"), { cid, ifname });
    writeFileSync(join(store(), "198.18.0.200"), "keep", { mode: 0o600 });
    writeFileSync(join(store(), "198.18.0.201"), "stale-legacy", { mode: 0o600 });
    const gc = await run(
      "GC",
      netconf("1.1.0", {}, { "cni.dev/valid-attachments": [{ containerID: "keep", ifname: "eth0" }] }),
    );
    expect(gc).toEqual({ code: 0, out: undefined });
    expect(files()).toEqual(["198.18.0.2", "198.18.0.200", "last_reserved_ip.0", "lock"]);
  });

  test("works for a network whose ranges come only from the ipRanges capability", async () => {
    const conf = netconf(
      "1.1.0",
      { subnet: undefined },
      { runtimeConfig: { ipRanges: [[{ subnet: "198.18.5.0/24" }]] } },
    );
    expect((await run("ADD", conf)).code).toBe(0);
    const { runtimeConfig: _, ...gcConf } = conf;
    expect((await run("GC", { ...gcConf, "cni.dev/valid-attachments": [] })).code).toBe(0);
    expect(files()).toEqual(["last_reserved_ip.0", "lock"]);
  });

  test("is refused below 1.1.0 by the framework (GC-10)", async () => {
    expect((await run("GC", netconf("1.0.0"))).out).toMatchObject({ code: 1, msg: "config version does not allow GC" });
  });
});

describe("STATUS (§1.5)", () => {
  test("is ready with free addresses", async () => {
    expect(await run("STATUS", netconf("1.1.0"))).toEqual({ code: 0, out: undefined });
  });

  test("answers 50 when a range set is full", async () => {
    const conf = netconf("1.1.0", { subnet: "198.18.0.0/30" });
    await run("ADD", conf);
    expect((await run("STATUS", conf)).out).toMatchObject({
      code: 50,
      msg: "no IP addresses available in range set: 198.18.0.1-198.18.0.2",
    });
  });

  test("answers 50 when the data dir is unusable", async () => {
    const blocked = join(dataDir, "file");
    writeFileSync(blocked, "");
    const r = await run("STATUS", netconf("1.1.0", { dataDir: blocked }));
    expect(r.out).toMatchObject({ code: 50, msg: expect.stringContaining("is unusable") });
  });
});
