/**
 * portmap through the protocol on the fake kernel and fake firewall (SPEC.md §8.5):
 * ADD, CHECK and DEL for both backends and every spec version, the pass-through without
 * mappings, rollback of a failed ADD, conntrack and route_localnet.
 */
import { describe, expect, test } from "bun:test";
import { formatChainName } from "@tscni/firewall";
import { HOST } from "@tscni/kernel";
import { VERSIONS } from "@tscni/spec";
import { PREV, World, portmapConf } from "./portmap-harness.ts";

const MAPS = [
  { hostPort: 8080, containerPort: 80, protocol: "tcp" },
  { hostPort: 5353, containerPort: 53, protocol: "udp" },
];
const DN = formatChainName("net", "c1", "DN-");
const BACKENDS = ["iptables", "nftables"] as const;

describe("portmap ADD", () => {
  for (const v of VERSIONS) {
    test(`at ${v} without mappings prints prevResult converted and touches no table`, async () => {
      const w = new World();
      const r = await w.run("ADD", portmapConf([], {}, v));
      expect(r.code).toBe(0);
      expect(r.json().cniVersion).toBe(v);
      expect(w.firewall.transactions).toEqual([]);
      expect(w.firewall.dump()).toEqual({ iptables: {}, nftables: {} });
    });
  }

  test("without prevResult fails: must be called as chained plugin", async () => {
    const w = new World();
    const r = await w.run("ADD", {
      cniVersion: "1.0.0",
      name: "net",
      type: "portmap",
      runtimeConfig: { portMappings: MAPS },
    });
    expect(r.code).toBe(1);
    expect(r.json().msg).toBe("must be called as chained plugin");
  });

  test("a bad config fails wrapped as 'failed to parse config' with code 7, touching nothing", async () => {
    const w = new World();
    const r = await w.run("ADD", portmapConf(MAPS, { markMasqBit: 99 }));
    expect([r.code, r.json().code, r.json().msg]).toEqual([
      1,
      7,
      "failed to parse config: MasqMarkBit must be between 0 and 31",
    ]);
    expect(w.firewall.transactions).toEqual([]);
  });

  for (const backend of BACKENDS) {
    test(`${backend}: one transaction, prevResult printed unchanged, CHECK passes, DEL restores the baseline`, async () => {
      const w = new World();
      const conf = portmapConf(MAPS, { backend });
      const add = await w.run("ADD", conf);
      expect(add.code).toBe(0);
      expect(add.json()).toEqual(PREV);
      expect(w.firewall.transactions.length).toBe(1);
      expect((await w.run("CHECK", conf)).code).toBe(0);
      // ADD again changes nothing (the reference's InsertUnique / ensure semantics).
      const before = w.firewall.dump();
      expect((await w.run("ADD", conf)).code).toBe(0);
      expect(w.firewall.dump()).toEqual(before);
      expect((await w.run("DEL", conf)).code).toBe(0);
      const dump = w.firewall.dump();
      const text = JSON.stringify(dump);
      expect(text).not.toContain(DN);
      expect(text).not.toContain('comment \\"c1\\"');
      // DEL again succeeds and changes nothing (DEL-3).
      expect((await w.run("DEL", conf)).code).toBe(0);
      expect(w.firewall.dump()).toEqual(dump);
    });

    test(`${backend}: CHECK fails when the container's rules are gone`, async () => {
      const w = new World();
      const conf = portmapConf(MAPS, { backend });
      await w.run("ADD", conf);
      await w.run("DEL", conf);
      const r = await w.run("CHECK", conf);
      expect(r.code).toBe(1);
      expect(r.json().msg).toMatch(
        backend === "iptables"
          ? `could not check ipv4 dnat: chain ${DN} not found in iptables table nat`
          : 'missing hostport rules in "hostports" chain',
      );
    });

    test(`${backend}: a failed transaction leaves nothing of the container behind`, async () => {
      const w = new World();
      // IPv4 goes first in the transaction; failing on an IPv6 rule leaves IPv4 to undo.
      w.firewall.failWhen = (op) =>
        op.op === "ipt.rule.append" && op.family === 6
          ? "boom"
          : op.op === "nft.rule.add" && op.family === "ip6"
            ? "boom"
            : undefined;
      const r = await w.run("ADD", portmapConf(MAPS, { backend }));
      expect(r.code).toBe(1);
      expect(r.json().msg).toContain("boom");
      const text = JSON.stringify(w.firewall.dump());
      expect(text).not.toContain(DN);
      expect(text).not.toContain('comment \\"c1\\"');
    });

    test(`${backend}: when route_localnet cannot be set, ADD fails and removes the rules it applied`, async () => {
      const w = new World();
      w.kernel.failAt((op) => op.op === "sysctl.set");
      const r = await w.run("ADD", portmapConf(MAPS, { backend }));
      expect(r.code).toBe(1);
      expect(r.json().msg).toStartWith("unable to enable route_localnet: ");
      expect(w.firewall.transactions.length).toBe(2);
      const text = JSON.stringify(w.firewall.dump());
      expect(text).not.toContain(DN);
      expect(text).not.toContain('comment \\"c1\\"');
    });

    test(`${backend}: DEL without mappings succeeds and touches nothing`, async () => {
      const w = new World();
      await w.run("ADD", portmapConf(MAPS, { backend }));
      const n = w.firewall.transactions.length;
      expect((await w.run("DEL", portmapConf([], { backend }))).code).toBe(0);
      expect(w.firewall.transactions.length).toBe(n);
    });
  }

  test("two containers' rules do not collide: deleting one keeps the other's", async () => {
    for (const backend of BACKENDS) {
      const w = new World();
      const a = portmapConf(MAPS, { backend });
      const b = portmapConf([{ hostPort: 9090, containerPort: 90, protocol: "tcp" }], {
        backend,
        prevResult: { ...PREV, ips: [{ address: "198.18.0.6/24", interface: 2 }] },
      });
      await w.run("ADD", a, "c1");
      await w.run("ADD", b, "c2");
      await w.run("DEL", a, "c1");
      expect((await w.run("CHECK", b, "c2")).code).toBe(0);
    }
  });

  test("deletes the UDP conntrack entries of the mapped host ports in each family, and only warns when that fails", async () => {
    const w = new World();
    await w.run("ADD", portmapConf(MAPS));
    expect(w.conntrack).toEqual([
      [4, "udp", 5353],
      [6, "udp", 5353],
    ]);
    const w2 = new World();
    w2.conntrackFails = true;
    expect((await w2.run("ADD", portmapConf(MAPS))).code).toBe(0);
    expect(w2.warnings[0]).toBe(
      "failed to delete stale UDP conntrack entries for 198.18.0.5: netlink: permission denied",
    );
  });

  test("sets route_localnet on the host interface routing to the container, only with snat", async () => {
    const w = new World();
    await w.run("ADD", portmapConf(MAPS));
    expect(await w.kernel.sysctl(HOST, "net.ipv4.conf.cni0.route_localnet")).toBe("1");
    const w2 = new World();
    await w2.run("ADD", portmapConf(MAPS, { snat: false }));
    expect(await w2.kernel.sysctl(HOST, "net.ipv4.conf.cni0.route_localnet")).toBe("0");
  });

  test("picks nftables when iptables is unusable, and DEL then works without iptables", async () => {
    const w = new World({ support: { iptables: false, nftables: true } });
    const conf = portmapConf(MAPS);
    expect((await w.run("ADD", conf)).code).toBe(0);
    expect(Object.keys(w.firewall.dump().nftables).sort()).toEqual(["ip cni_hostport", "ip6 cni_hostport"]);
    expect((await w.run("DEL", conf)).code).toBe(0);
  });

  test("iptables DEL fails only when neither iptables nor ip6tables is usable", async () => {
    const one = new World();
    one.firewall.failWhen = (op) =>
      op.op.startsWith("ipt.") && "family" in op && op.family === 6 ? "ip6tables: no IPv6" : undefined;
    expect(
      (await one.run("ADD", portmapConf(MAPS, { backend: "iptables", prevResult: { ...PREV, ips: [PREV.ips[0]] } })))
        .code,
    ).toBe(0);
    expect((await one.run("DEL", portmapConf(MAPS, { backend: "iptables" }))).code).toBe(0);
    expect(JSON.stringify(one.firewall.dump())).not.toContain(DN);
    const w = new World({ support: { iptables: false, nftables: false } });
    const r = await w.run("DEL", portmapConf(MAPS, { backend: "iptables" }));
    expect(r.code).toBe(1);
    expect(r.json().msg).toStartWith("neither iptables nor ip6tables is usable, (iptables) ");
  });

  test("CHECK without prevResult fails with 'Required prevResult missing'", async () => {
    const w = new World();
    const r = await w.run("CHECK", {
      cniVersion: "1.0.0",
      name: "net",
      type: "portmap",
      runtimeConfig: { portMappings: MAPS },
    });
    expect(r.json().msg).toBe("Required prevResult missing");
  });
});
