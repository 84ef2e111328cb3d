/**
 * static IPAM next to the reference's (Debian v1.1.1), on the same inputs (issue 12 item
 * 5): every ADD prints the same result, every refused config the same message, and CHECK
 * and DEL answer alike. static touches no kernel, so both binaries run directly.
 * Removed before comparing: the `"dns":{}` libcni v1.1 prints on 1.x results; error
 * codes, where the reference's skel makes every plain error 999 and we give SPEC §4.2's
 * code (7 for the config, 4 for CNI_ARGS).
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { OUR_BIN_DIR, REFERENCE_PLUGINS, announceSkip, missingReference } from "./_reference.ts";

const skip =
  missingReference({ go: false }) ??
  (existsSync(join(REFERENCE_PLUGINS, "static"))
    ? undefined
    : `missing ${REFERENCE_PLUGINS}/static (apt-get install containernetworking-plugins)`);
announceSkip("static.compat.test.ts", skip);

async function run(
  dir: string,
  command: string,
  config: object,
  cniArgs = "",
): Promise<{ code: number; out: Record<string, unknown> | undefined }> {
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    CNI_COMMAND: command,
    CNI_CONTAINERID: "ctr-static",
    CNI_NETNS: "/var/run/netns/tscni-static-none",
    CNI_IFNAME: "eth0",
    CNI_PATH: dir,
    CNI_ARGS: cniArgs,
  };
  const proc = Bun.spawn([join(dir, "static")], {
    env,
    stdin: new TextEncoder().encode(JSON.stringify(config)),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  return { code, out: stdout === "" ? undefined : (JSON.parse(stdout) as Record<string, unknown>) };
}

/** The output with the library-age and code differences taken out. */
function comparable(r: { code: number; out: Record<string, unknown> | undefined }): unknown {
  if (r.out === undefined) return { code: r.code };
  if (r.code !== 0) return { exit: r.code, msg: r.out.msg };
  const { dns, ...rest } = r.out;
  const emptyDns = dns === undefined || (typeof dns === "object" && dns !== null && Object.keys(dns).length === 0);
  return { exit: 0, ...rest, ...(emptyDns ? {} : { dns }) };
}

const ipam = (extra: Record<string, unknown>) => ({ type: "static", ...extra });
const full = ipam({
  addresses: [
    { address: "198.18.0.5/24", gateway: "198.18.0.1" },
    { address: "2001:db8::5/64", gateway: "2001:db8::1" },
  ],
  routes: [{ dst: "0.0.0.0/0" }, { dst: "198.18.9.7/24", gw: "198.18.0.9" }, { dst: "::/0" }],
  dns: { nameservers: ["198.18.0.53"], domain: "example.test", search: ["a.test"], options: ["ndots:2"] },
});

const CASES: { what: string; config: Record<string, unknown>; args?: string }[] = [];
for (const v of ["0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "1.0.0"])
  CASES.push({ what: `everything at ${v}`, config: { cniVersion: v, name: "st", ipam: full } });
CASES.push(
  {
    what: "CNI_ARGS IP= and GATEWAY=",
    config: { cniVersion: "1.0.0", name: "st", ipam: ipam({ addresses: [{ address: "198.18.1.5/24" }] }) },
    args: "IP=198.18.0.5/24, 2001:db8::5/64;GATEWAY=198.18.0.1",
  },
  {
    what: "args.cni.ips over CNI_ARGS",
    config: { cniVersion: "1.0.0", name: "st", ipam: ipam({}), args: { cni: { ips: ["198.18.2.5/24"] } } },
    args: "IP=198.18.0.5/24",
  },
  {
    what: "the ips capability over args.cni.ips",
    config: {
      cniVersion: "1.0.0",
      name: "st",
      ipam: ipam({}),
      args: { cni: { ips: ["198.18.2.5/24"] } },
      runtimeConfig: { ips: ["198.18.3.5/24"] },
    },
  },
  {
    what: "two IPv4 addresses at 0.2.0",
    config: {
      cniVersion: "0.2.0",
      name: "st",
      ipam: ipam({ addresses: [{ address: "198.18.0.5/24" }, { address: "198.18.0.6/24" }] }),
    },
  },
  { what: "no ipam", config: { cniVersion: "1.0.0", name: "st" } },
  {
    what: "an address that is not CIDR",
    config: { cniVersion: "1.0.0", name: "st", ipam: ipam({ addresses: [{ address: "198.18.0.5" }] }) },
  },
  {
    what: "a gateway that is not an IP",
    config: {
      cniVersion: "1.0.0",
      name: "st",
      ipam: ipam({ addresses: [{ address: "198.18.0.5/24", gateway: "x" }] }),
    },
  },
  {
    what: "a route that is not CIDR",
    config: { cniVersion: "1.0.0", name: "st", ipam: ipam({ routes: [{ dst: "x" }] }) },
  },
  {
    what: "a wrongly typed address",
    config: { cniVersion: "1.0.0", name: "st", ipam: ipam({ addresses: [{ address: 5 }] }) },
  },
  { what: "a wrongly typed ipam", config: { cniVersion: "1.0.0", name: "st", ipam: 5 } },
  { what: "a bad CNI_ARGS IP", config: { cniVersion: "1.0.0", name: "st", ipam: ipam({}) }, args: "IP=198.18.0.5" },
  {
    what: "a bad CNI_ARGS GATEWAY",
    config: { cniVersion: "1.0.0", name: "st", ipam: ipam({}) },
    args: "IP=198.18.0.5/24;GATEWAY=q",
  },
  { what: "an unknown CNI_ARGS key", config: { cniVersion: "1.0.0", name: "st", ipam: ipam({}) }, args: "FOO=bar" },
  {
    what: "a bad args.cni.ips entry",
    config: { cniVersion: "1.0.0", name: "st", ipam: ipam({}), args: { cni: { ips: ["x"] } } },
  },
  {
    what: "a bad runtimeConfig.ips entry",
    config: { cniVersion: "1.0.0", name: "st", ipam: ipam({}), runtimeConfig: { ips: ["198.18.0.9"] } },
  },
);

describe.skipIf(skip !== undefined)("static against the reference v1.1.1", () => {
  for (const c of CASES) {
    test(`ADD answers alike: ${c.what}`, async () => {
      const [ref, ours] = await Promise.all([
        run(REFERENCE_PLUGINS, "ADD", c.config, c.args),
        run(OUR_BIN_DIR, "ADD", c.config, c.args),
      ]);
      expect(comparable(ours)).toEqual(comparable(ref));
    });
  }

  test("CHECK answers alike on a matching prevResult, on a wrong gateway, and without prevResult", async () => {
    const conf = { cniVersion: "1.0.0", name: "st", ipam: full };
    const prevResult = (await run(REFERENCE_PLUGINS, "ADD", conf)).out;
    const wrong = { cniVersion: "1.0.0", ips: [{ address: "198.18.0.5/24", gateway: "198.18.0.254" }] };
    for (const config of [{ ...conf, prevResult }, { ...conf, prevResult: wrong }, conf]) {
      const [ref, ours] = await Promise.all([
        run(REFERENCE_PLUGINS, "CHECK", config),
        run(OUR_BIN_DIR, "CHECK", config),
      ]);
      expect(comparable(ours)).toEqual(comparable(ref));
    }
  });

  test("DEL succeeds on both sides, with or without a valid ipam", async () => {
    for (const config of [
      { cniVersion: "1.0.0", name: "st", ipam: full },
      { cniVersion: "1.0.0", name: "st", ipam: ipam({ addresses: [{ address: "x" }] }) },
    ]) {
      const [ref, ours] = await Promise.all([run(REFERENCE_PLUGINS, "DEL", config), run(OUR_BIN_DIR, "DEL", config)]);
      expect(comparable(ours)).toEqual(comparable(ref));
    }
  });
});
