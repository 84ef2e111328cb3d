import { describe, expect, test } from "bun:test";
import { FakeFirewall } from "@tscni/firewall/fake";
import { pluginMain, type PluginIO } from "@tscni/skel";
import { fakeFirewalld } from "../testing/fake-dbus.ts";
import { firewallDefinition } from "./index.ts";

const NS = "/var/run/netns/tscni-fw-test";
const PREV = {
  cniVersion: "1.0.0",
  interfaces: [
    { name: "cni0", mac: "02:00:00:00:00:01" },
    { name: "veth1", mac: "02:00:00:00:00:02" },
    { name: "eth0", mac: "02:00:00:00:00:03", sandbox: NS },
  ],
  ips: [
    { address: "198.18.0.5/24", gateway: "198.18.0.1", interface: 2 },
    { address: "2001:db8::5/64", gateway: "2001:db8::1", interface: 2 },
  ],
};
const conf = (extra: Record<string, unknown> = {}) => ({
  cniVersion: "1.0.0",
  name: "net",
  type: "firewall",
  backend: "iptables",
  prevResult: PREV,
  ...extra,
});

interface Setup {
  fw: FakeFirewall;
  bus: ReturnType<typeof fakeFirewalld>;
}
const setup = (opts: { firewalld?: boolean } = {}): Setup => ({
  fw: new FakeFirewall(),
  bus: fakeFirewalld({ running: opts.firewalld ?? false }),
});

async function run(s: Setup, command: string, config: Record<string, unknown>, containerID = "ctr1") {
  let stdout = "";
  const io: PluginIO = {
    env: {
      CNI_COMMAND: command,
      CNI_CONTAINERID: containerID,
      CNI_NETNS: NS,
      CNI_IFNAME: "eth0",
      CNI_PATH: "/opt/cni/bin",
    },
    readStdin: async () => new TextEncoder().encode(JSON.stringify(config)),
    stdout: (x) => void (stdout += x),
    stderr: () => {},
  };
  const code = await pluginMain(firewallDefinition({ firewall: s.fw, dbus: s.bus, warn: () => {} }), io, {
    sameNetns: () => false,
  });
  return { code, stdout, json: () => JSON.parse(stdout) };
}

const FWD = "-m comment --comment CNI firewall plugin rules -j CNI-FORWARD";
const ADMIN = "-m comment --comment CNI firewall plugin admin overrides -j CNI-ADMIN";
const rules4 = ["-d 198.18.0.5/32 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT", "-s 198.18.0.5/32 -j ACCEPT"];
const rules6 = [
  "-d 2001:db8::5/128 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT",
  "-s 2001:db8::5/128 -j ACCEPT",
];

describe("firewall plugin, iptables backend, on the fake firewall", () => {
  test("ADD makes CNI-FORWARD and CNI-ADMIN in both families, jumps, and the address rules, and passes prevResult on", async () => {
    const s = setup();
    const r = await run(s, "ADD", conf());
    expect(r.code).toBe(0);
    expect(r.json()).toEqual(PREV);
    expect(s.fw.dump().iptables).toEqual({
      "4 filter": { INPUT: [], FORWARD: [FWD], OUTPUT: [], "CNI-FORWARD": [ADMIN, ...rules4], "CNI-ADMIN": [] },
      "6 filter": { INPUT: [], FORWARD: [FWD], OUTPUT: [], "CNI-FORWARD": [ADMIN, ...rules6], "CNI-ADMIN": [] },
    });
    expect(s.fw.transactions.length).toBe(1);
  });

  test("ADD again changes nothing, and a second container's rules go after the first's", async () => {
    const s = setup();
    await run(s, "ADD", conf());
    const once = s.fw.dump();
    expect((await run(s, "ADD", conf())).code).toBe(0);
    expect(s.fw.dump()).toEqual(once);
    const other = { ...PREV, ips: [{ address: "198.18.0.6/24", interface: 2 }] };
    await run(s, "ADD", conf({ prevResult: other }), "ctr2");
    expect(s.fw.dump().iptables["4 filter"]?.["CNI-FORWARD"]).toEqual([
      ADMIN,
      ...rules4,
      "-d 198.18.0.6/32 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT",
      "-s 198.18.0.6/32 -j ACCEPT",
    ]);
    expect(s.fw.dump().iptables["6 filter"]).toEqual(once.iptables["6 filter"]);
  });

  test("iptablesAdminChainName replaces CNI-ADMIN", async () => {
    const s = setup();
    await run(s, "ADD", conf({ iptablesAdminChainName: "MY-ADMIN" }));
    expect(s.fw.dump().iptables["4 filter"]?.["MY-ADMIN"]).toEqual([]);
    expect(s.fw.dump().iptables["4 filter"]?.["CNI-FORWARD"]?.[0]).toBe(
      "-m comment --comment CNI firewall plugin admin overrides -j MY-ADMIN",
    );
  });

  test("DEL removes only this container's rules in one transaction, and DEL again succeeds (DEL-3)", async () => {
    const s = setup();
    await run(s, "ADD", conf());
    await run(s, "ADD", conf({ prevResult: { ...PREV, ips: [{ address: "198.18.0.6/24", interface: 2 }] } }), "ctr2");
    const before = s.fw.transactions.length;
    expect((await run(s, "DEL", conf())).code).toBe(0);
    expect(s.fw.transactions.length).toBe(before + 1);
    expect(s.fw.dump().iptables["4 filter"]?.["CNI-FORWARD"]).toEqual([
      ADMIN,
      "-d 198.18.0.6/32 -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT",
      "-s 198.18.0.6/32 -j ACCEPT",
    ]);
    expect(s.fw.dump().iptables["6 filter"]?.["CNI-FORWARD"]).toEqual([ADMIN]);
    expect((await run(s, "DEL", conf())).code).toBe(0);
  });

  test("DEL succeeds with no chains at all and touches nothing without prevResult", async () => {
    const s = setup();
    expect((await run(s, "DEL", conf())).code).toBe(0);
    const { prevResult: _, ...bare } = conf();
    expect((await run(s, "DEL", bare)).code).toBe(0);
    expect(s.fw.dump()).toEqual({ iptables: {}, nftables: {} });
  });

  test("a failed ADD leaves no rule of its own behind", async () => {
    const s = setup();
    s.fw.failWhen = (op) =>
      op.op === "ipt.rule.append" && op.family === 6 ? "ip6tables-restore: line 4 failed" : undefined;
    const r = await run(s, "ADD", conf());
    expect(r.code).toBe(1);
    expect(r.json().msg).toContain("line 4 failed");
    s.fw.failWhen = undefined;
    const chains = s.fw.dump().iptables;
    for (const t of Object.values(chains)) expect(t["CNI-FORWARD"] ?? [ADMIN]).toEqual([ADMIN]);
  });

  test("CHECK passes after ADD and names a rule that went missing", async () => {
    const s = setup();
    await run(s, "ADD", conf());
    expect((await run(s, "CHECK", conf())).code).toBe(0);
    await s.fw.apply([
      { op: "ipt.rule.delete", family: 6, table: "filter", chain: "CNI-FORWARD", rule: rules6[1]!.split(" ") },
    ]);
    const r = await run(s, "CHECK", conf());
    expect(r.code).toBe(1);
    expect(r.json().msg).toBe("expected rule [-s 2001:db8::5/128 -j ACCEPT] not found");
  });

  test("CHECK and ADD need prevResult, with the reference's message", async () => {
    const { prevResult: _, ...bare } = conf();
    for (const cmd of ["ADD", "CHECK"])
      expect((await run(setup(), cmd, bare)).json().msg).toBe("missing prevResult from earlier plugin");
  });

  for (const version of ["0.4.0", "1.0.0", "1.1.0"]) {
    test(`ADD at ${version} passes prevResult through in that version, and CHECK and DEL accept it`, async () => {
      const s = setup();
      const prev = { ...PREV, cniVersion: version };
      const r = await run(s, "ADD", conf({ cniVersion: version, prevResult: prev }));
      expect(r.code).toBe(0);
      expect(r.json().cniVersion).toBe(version);
      expect(r.json().ips.map((ip: { address: string }) => ip.address)).toEqual(["198.18.0.5/24", "2001:db8::5/64"]);
      expect((await run(s, "CHECK", conf({ cniVersion: version, prevResult: prev }))).code).toBe(0);
      expect((await run(s, "DEL", conf({ cniVersion: version, prevResult: prev }))).code).toBe(0);
    });
  }

  test("supports spec versions 0.4.0 and later only, as the reference", async () => {
    const r = await run(setup(), "ADD", conf({ cniVersion: "0.3.1", prevResult: { ...PREV, cniVersion: "0.3.1" } }));
    expect(r.code).toBe(1);
    expect(r.json().code).toBe(1);
  });
});

describe("firewall plugin ingressPolicy", () => {
  test("same-bridge adds the isolation chains for the bridge, jumped from FORWARD before CNI-FORWARD", async () => {
    const s = setup();
    expect((await run(s, "ADD", conf({ ingressPolicy: "same-bridge" }))).code).toBe(0);
    const t = s.fw.dump().iptables["4 filter"];
    const c = "--comment CNI firewall plugin rules (ingressPolicy: same-bridge|isolated)";
    expect(t?.FORWARD).toEqual([`-m comment ${c} -j CNI-ISOLATION-STAGE-1`, FWD]);
    expect(t?.["CNI-ISOLATION-STAGE-1"]).toEqual([
      "-i cni0 ! -o cni0 -m comment --comment CNI firewall plugin rules (ingressPolicy: same-bridge) -j CNI-ISOLATION-STAGE-2",
      `-m comment ${c} -j RETURN`,
    ]);
    expect(t?.["CNI-ISOLATION-STAGE-2"]).toEqual([`-o cni0 -m comment ${c} -j DROP`, `-m comment ${c} -j RETURN`]);
    expect(s.fw.transactions.length).toBe(1);
  });

  test("a second bridge's rules go above the RETURNs, and DEL leaves the isolation chains", async () => {
    const s = setup();
    await run(s, "ADD", conf({ ingressPolicy: "same-bridge" }));
    const prev2 = { ...PREV, interfaces: [{ name: "cni1" }], ips: [{ address: "198.18.1.5/24", interface: 0 }] };
    await run(s, "ADD", conf({ ingressPolicy: "same-bridge", prevResult: prev2 }), "ctr2");
    const stage2 = s.fw.dump().iptables["4 filter"]?.["CNI-ISOLATION-STAGE-2"];
    expect(stage2?.map((r) => r.split(" ").slice(0, 2).join(" "))).toEqual(["-o cni1", "-o cni0", "-m comment"]);
    await run(s, "DEL", conf({ ingressPolicy: "same-bridge" }));
    expect(s.fw.dump().iptables["4 filter"]?.["CNI-ISOLATION-STAGE-1"]?.length).toBe(3);
  });

  test("an isolating policy needs the bridge as prevResult's first interface", async () => {
    const r = await run(setup(), "ADD", conf({ ingressPolicy: "isolated", prevResult: { ...PREV, interfaces: [] } }));
    expect(r.json().msg).toBe(
      'interface needs to be set for ingress policy "isolated", make sure to chain "firewall" plugin with "bridge"',
    );
  });

  test("an unknown policy fails ADD before touching anything, and fails DEL after removing the rules", async () => {
    const s = setup();
    const r = await run(s, "ADD", conf({ ingressPolicy: "closed" }));
    expect(r.json().msg).toBe('unknown ingress policy: "closed"');
    expect(s.fw.transactions).toEqual([]);
    await run(s, "ADD", conf());
    expect((await run(s, "DEL", conf({ ingressPolicy: "closed" }))).json().msg).toBe(
      'unknown ingress policy: "closed"',
    );
    expect(s.fw.dump().iptables["4 filter"]?.["CNI-FORWARD"]).toEqual([ADMIN]);
  });
});

describe("firewall plugin backend choice and firewalld", () => {
  test("with no backend set and firewalld running, the addresses become sources of the trusted zone and iptables is untouched", async () => {
    const s = setup({ firewalld: true });
    expect((await run(s, "ADD", conf({ backend: undefined }))).code).toBe(0);
    expect([...(s.bus.zones.get("trusted") ?? [])]).toEqual(["198.18.0.5/32", "2001:db8::5/128"]);
    expect(s.fw.transactions).toEqual([]);
    expect((await run(s, "CHECK", conf({ backend: undefined }))).code).toBe(0);
    expect((await run(s, "DEL", conf({ backend: undefined }))).code).toBe(0);
    expect([...(s.bus.zones.get("trusted") ?? [])]).toEqual([]);
  });

  test("firewalldZone picks the zone, and an isolating policy still writes iptables, as the reference", async () => {
    const s = setup({ firewalld: true });
    await run(s, "ADD", conf({ backend: "firewalld", firewalldZone: "internal", ingressPolicy: "same-bridge" }));
    expect(s.bus.zones.get("internal")?.size).toBe(2);
    expect(Object.keys(s.fw.dump().iptables["4 filter"] ?? {})).toContain("CNI-ISOLATION-STAGE-1");
    expect(s.fw.dump().iptables["4 filter"]?.["CNI-FORWARD"]).toBeUndefined();
  });

  test("a failed isolation write under firewalld removes the zone sources it added", async () => {
    const s = setup({ firewalld: true });
    s.fw.failWhen = () => "iptables-restore: no such table";
    expect((await run(s, "ADD", conf({ backend: "firewalld", ingressPolicy: "same-bridge" }))).code).toBe(1);
    expect(s.bus.zones.get("trusted")?.size ?? 0).toBe(0);
  });

  test("backend iptables wins over a running firewalld; without firewalld the default is iptables", async () => {
    const s = setup({ firewalld: true });
    await run(s, "ADD", conf({ backend: "iptables" }));
    expect(s.bus.zones.size).toBe(0);
    expect(s.fw.transactions.length).toBe(1);
    const t = setup({ firewalld: false });
    await run(t, "ADD", conf({ backend: "" }));
    expect(t.fw.dump().iptables["4 filter"]?.["CNI-FORWARD"]).toEqual([ADMIN, ...rules4]);
  });

  test("CHECK under firewalld fails for an address missing from the zone", async () => {
    const s = setup({ firewalld: true });
    const r = await run(s, "CHECK", conf({ backend: "firewalld" }));
    expect(r.json().msg).toBe("failed to find the address 198.18.0.5/32 in trusted zone");
  });
});
