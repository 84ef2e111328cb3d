import { describe, expect, test } from "bun:test";
import { FakeKernel } from "@tscni/kernel/fake";
import { pluginMain } from "@tscni/skel";
import type { PluginIO } from "@tscni/skel";
import { VERSIONS } from "@tscni/spec";
import { definition } from "./index.ts";

const NS = "/var/run/netns/tscni-lo-test";

async function run(
  kernel: FakeKernel,
  command: string,
  config: Record<string, unknown>,
  env: Record<string, string> = {},
) {
  let stdout = "";
  const io: PluginIO = {
    env: {
      CNI_COMMAND: command,
      CNI_CONTAINERID: "ctr1",
      CNI_NETNS: NS,
      CNI_IFNAME: "eth0",
      CNI_PATH: "/opt/cni/bin",
      ...env,
    },
    readStdin: async () => new TextEncoder().encode(JSON.stringify(config)),
    stdout: (s) => void (stdout += s),
    stderr: () => {},
  };
  const code = await pluginMain(definition(kernel), io, { sameNetns: () => false });
  return { code, stdout, json: () => JSON.parse(stdout) };
}

function kernelWithNs(): FakeKernel {
  const k = new FakeKernel();
  k.addNetns(NS);
  return k;
}

const lo = async (k: FakeKernel) => (await k.links(NS)).find((l) => l.name === "lo");
const conf = (cniVersion: string, extra: Record<string, unknown> = {}) => ({
  cniVersion,
  name: "lo-net",
  type: "loopback",
  ...extra,
});

describe("loopback on the fake kernel", () => {
  test("ADD brings lo up and reports it with its first IPv4 and IPv6 address (LO-2)", async () => {
    const k = kernelWithNs();
    expect((await lo(k))?.up).toBe(false);
    const r = await run(k, "ADD", conf("1.1.0"));
    expect(r.code).toBe(0);
    expect((await lo(k))?.up).toBe(true);
    expect(r.json()).toEqual({
      cniVersion: "1.1.0",
      interfaces: [{ name: "lo", mac: "00:00:00:00:00:00", sandbox: NS }],
      ips: [
        { address: "127.0.0.1/8", interface: 0 },
        { address: "::1/128", interface: 0 },
      ],
    });
  });

  for (const v of VERSIONS) {
    test(`ADD prints its result in the config version ${v} (ADD-2)`, async () => {
      const r = await run(kernelWithNs(), "ADD", conf(v));
      expect(r.code).toBe(0);
      const out = r.json();
      expect(out.cniVersion).toBe(v);
      if (v === "0.1.0" || v === "0.2.0") expect(out.ip4).toEqual({ ip: "127.0.0.1/8" });
      else expect(out.interfaces[0].name).toBe("lo");
    });
  }

  test("a prevResult that is not an object is code 7, one of another version family code 1 (§4.2)", async () => {
    // v1.1.1 (Debian) differs: code 999 for both; SPEC §4.2 gives the codes of an invalid config and a version clash
    const notObject = await run(kernelWithNs(), "ADD", conf("1.0.0", { prevResult: 5 }));
    expect(notObject.json()).toMatchObject({
      code: 7,
      msg: "failed to parse network config: json: cannot unmarshal number into Go struct field NetConf.prevResult of type map[string]interface {}",
    });
    const otherFamily = await run(kernelWithNs(), "ADD", conf("1.0.0", { prevResult: { cniVersion: "0.4.0" } }));
    expect(otherFamily.json()).toMatchObject({
      code: 1,
      msg: 'failed to parse prevResult: could not parse prevResult: result type supports [1.0.0 1.1.0] but unmarshalled CNIVersion is "0.4.0"',
    });
  });

  test("CNI_IFNAME is ignored: only lo is touched (LO-1)", async () => {
    const k = kernelWithNs();
    const r = await run(k, "ADD", conf("1.0.0"), { CNI_IFNAME: "eth9" });
    expect(r.code).toBe(0);
    expect((await k.links(NS)).map((l) => l.name)).toEqual(["lo"]);
    expect(r.json().interfaces[0].name).toBe("lo");
  });

  test("ADD fails when lo carries a non-loopback address (LO-2)", async () => {
    const k = kernelWithNs();
    await k.apply([{ op: "addr.add", ns: NS, dev: "lo", cidr: "198.18.0.9/24" }]);
    const r = await run(k, "ADD", conf("1.0.0"));
    expect(r.code).toBe(1);
    expect(r.json()).toMatchObject({
      code: 999,
      msg: 'loopback interface found with non-loopback address "198.18.0.9"',
    });
  });

  test("a chained ADD prints the prevResult unchanged (LO-2, ADD-3)", async () => {
    const prevResult = {
      cniVersion: "1.0.0",
      interfaces: [{ name: "eth0", mac: "c2:11:22:33:44:55", sandbox: NS }],
      ips: [{ address: "198.18.0.2/24", gateway: "198.18.0.1", interface: 0 }],
      routes: [{ dst: "0.0.0.0/0", gw: "198.18.0.1" }],
    };
    const r = await run(kernelWithNs(), "ADD", conf("1.0.0", { prevResult }));
    expect(r.code).toBe(0);
    expect(r.json()).toEqual(prevResult);
  });

  test("CHECK passes when lo is up and fails when it is down (LO-4)", async () => {
    const k = kernelWithNs();
    const added = await run(k, "ADD", conf("1.0.0"));
    const ok = await run(k, "CHECK", conf("1.0.0", { prevResult: added.json() }));
    expect([ok.code, ok.stdout]).toEqual([0, ""]);
    await k.apply([{ op: "link.set", ns: NS, name: "lo", up: false }]);
    const down = await run(k, "CHECK", conf("1.0.0", { prevResult: added.json() }));
    expect(down.code).toBe(1);
    expect(down.json().msg).toBe("loopback interface is down");
  });

  test("DEL sets lo down, and repeating it succeeds (LO-3, DEL-3)", async () => {
    const k = kernelWithNs();
    await run(k, "ADD", conf("1.0.0"));
    expect((await run(k, "DEL", conf("1.0.0"))).code).toBe(0);
    expect((await lo(k))?.up).toBe(false);
    expect((await run(k, "DEL", conf("1.0.0"))).code).toBe(0);
  });

  test("DEL succeeds when the netns is gone or not given (LO-3, DEL-2)", async () => {
    const k = new FakeKernel();
    expect((await run(k, "DEL", conf("1.0.0"))).code).toBe(0);
    expect((await run(k, "DEL", conf("1.0.0"), { CNI_NETNS: "" })).code).toBe(0);
    expect(k.log).toHaveLength(0);
  });

  test("STATUS and GC have no handler and report success (LO-5)", async () => {
    const k = kernelWithNs();
    for (const cmd of ["STATUS", "GC"]) {
      const r = await run(k, cmd, conf("1.1.0"), { CNI_CONTAINERID: "", CNI_NETNS: "", CNI_IFNAME: "" });
      expect([r.code, r.stdout]).toEqual([0, ""]);
    }
  });
});
