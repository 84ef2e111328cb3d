/**
 * ipMasq on bridge and ptp over the fake kernel and the fake firewall (SPEC H-3, §8.1
 * ADD step 9 / DEL step 4, §8.2 ADD step 7 / DEL step 4): the rules ADD makes on each
 * backend, DEL back to the baseline (twice, and with the link or netns gone), teardown
 * on both backends, and a failed ADD that leaves nothing.
 */
import { describe, expect, test } from "bun:test";
import { FakeFirewall } from "@tscni/firewall/fake";
import { HOST } from "@tscni/kernel";
import { PluginHarness, resultAddresses } from "./plugin-harness.ts";

const NS = "/var/run/netns/m1";
type Plugin = "bridge" | "ptp";

function net(plugin: Plugin, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const ranges =
    plugin === "bridge"
      ? [[{ subnet: "198.18.20.0/24" }], [{ subnet: "2001:db8:20::/64" }]]
      : [[{ subnet: "198.18.21.0/24" }], [{ subnet: "2001:db8:21::/64" }]];
  return {
    cniVersion: "1.1.0",
    name: `${plugin}masq`,
    type: plugin,
    isGateway: true,
    ipMasq: true,
    ipam: { type: "host-local", ranges },
    ...extra,
  };
}

function machine(firewall = new FakeFirewall()): PluginHarness {
  const h = new PluginHarness({ seed: 5, firewall });
  h.kernel.addNetns(NS);
  return h;
}

/** What DEL must return the firewall to: no iptables rule; nft only the shared, empty skeleton. */
function baseline(h: PluginHarness): void {
  const d = h.firewall.dump();
  expect(d.iptables).toEqual({});
  for (const table of Object.values(d.nftables)) expect(table.masq_checks ?? []).toEqual([]);
}

/** A member of the fake kernel with `this` bound (its private fields need the real object). */
function bound(target: object, key: string | symbol): unknown {
  const v: unknown = Reflect.get(target, key);
  return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
}

const run = (h: PluginHarness, plugin: Plugin, command: string, extra: Record<string, unknown> = {}, cid = "ctr1") =>
  h.run(plugin, command, { config: net(plugin, extra), containerID: cid, netns: NS });

describe.each(["bridge", "ptp"] as const)("%s with ipMasq", (plugin) => {
  test("iptables: ADD makes the per-container chain and the POSTROUTING jumps for both families", async () => {
    const h = machine();
    const add = await run(h, plugin, "ADD", { ipMasqBackend: "iptables" });
    expect(add.json?.msg).toBeUndefined();
    const [v4, v6] = resultAddresses(add.json);
    const d = h.firewall.dump();
    const chains4 = d.iptables["4 nat"] ?? {};
    const chain = Object.keys(chains4).find((c) => c.startsWith("CNI-"))!;
    expect(chain).toHaveLength(28);
    const comment = `--comment name: "${plugin}masq" id: "ctr1"`;
    expect(chains4.POSTROUTING).toEqual([`-s ${v4!.split("/")[0]}/32 -m comment ${comment} -j ${chain}`]);
    expect(chains4[chain]).toEqual([
      `-d ${plugin === "bridge" ? "198.18.20.0" : "198.18.21.0"}/24 -m comment ${comment} -j ACCEPT`,
      `! -d 224.0.0.0/4 -m comment ${comment} -j MASQUERADE`,
    ]);
    expect(d.iptables["6 nat"]?.POSTROUTING).toEqual([`-s ${v6!.split("/")[0]}/128 -m comment ${comment} -j ${chain}`]);
    expect(d.nftables).toEqual({});
  });

  test("nftables: ADD adds one rule per address to masq_checks under the shared postrouting chain", async () => {
    const h = machine();
    const add = await run(h, plugin, "ADD", { ipMasqBackend: "nftables" });
    const [v4, v6] = resultAddresses(add.json).map((a) => a.split("/")[0]);
    const t = h.firewall.dump().nftables["inet cni_plugins_masquerade"];
    expect(t?.postrouting).toEqual(["ip daddr 224.0.0.0/4 return", "ip6 daddr ff00::/8 return", "goto masq_checks"]);
    expect(t?.masq_checks).toHaveLength(2);
    expect(t?.masq_checks?.[0]).toStartWith(`ip saddr ${v4} ip daddr != `);
    expect(t?.masq_checks?.[1]).toStartWith(`ip6 saddr ${v6} ip6 daddr != `);
    expect(t?.masq_checks?.[0]).toContain(`net: ${plugin}masq, if: eth0, id: ctr1`);
    expect(h.firewall.dump().iptables).toEqual({});
  });

  test.each(["iptables", "nftables"])(
    "%s: DEL returns the firewall to its baseline and can be repeated (DEL-3)",
    async (backend) => {
      const h = machine();
      await run(h, plugin, "ADD", { ipMasqBackend: backend });
      for (let i = 0; i < 2; i++) expect((await run(h, plugin, "DEL", { ipMasqBackend: backend })).code).toBe(0);
      baseline(h);
      expect(h.reserved(`${plugin}masq`)).toEqual([]);
    },
  );

  test("DEL tears down both backends, whichever the config names now (H-3)", async () => {
    const h = machine();
    await run(h, plugin, "ADD", { ipMasqBackend: "nftables" });
    await run(h, plugin, "ADD", { ipMasqBackend: "iptables" }, "ctr2");
    expect((await run(h, plugin, "DEL", { ipMasqBackend: "iptables" })).code).toBe(0);
    expect((await run(h, plugin, "DEL", {}, "ctr2")).code).toBe(0);
    baseline(h);
  });

  test("unset, the backend is iptables, or nftables where only nftables works", async () => {
    const both = machine();
    await run(both, plugin, "ADD");
    expect(Object.keys(both.firewall.dump().iptables)).toEqual(["4 nat", "6 nat"]);
    const nftOnly = machine(new FakeFirewall({ support: { iptables: false } }));
    expect((await run(nftOnly, plugin, "ADD")).code).toBe(0);
    expect(nftOnly.firewall.dump().nftables["inet cni_plugins_masquerade"]?.masq_checks).toHaveLength(2);
    // DEL succeeds though iptables fails there: only working backends count.
    expect((await run(nftOnly, plugin, "DEL")).code).toBe(0);
    baseline(nftOnly);
  });

  test("DEL after the netns is gone still removes the rules and releases IPAM", async () => {
    const h = machine();
    await run(h, plugin, "ADD", { ipMasqBackend: "iptables" });
    await run(h, plugin, "ADD", { ipMasqBackend: "nftables" }, "ctr2");
    await h.kernel.apply([{ op: "link.del", ns: NS, name: "eth0" }]);
    expect((await run(h, plugin, "DEL", {}, "ctr1")).code).toBe(0);
    expect((await run(h, plugin, "DEL", {}, "ctr2")).code).toBe(0);
    baseline(h);
  });

  test("DEL without a netns (CNI_NETNS empty) still removes the rules", async () => {
    const h = machine();
    await run(h, plugin, "ADD", { ipMasqBackend: "iptables" });
    await run(h, plugin, "ADD", { ipMasqBackend: "nftables" }, "ctr2");
    for (const cid of ["ctr1", "ctr2"])
      expect((await h.run(plugin, "DEL", { config: net(plugin), containerID: cid, netns: "" })).code).toBe(0);
    baseline(h);
    expect(h.reserved(`${plugin}masq`)).toEqual([]);
  });

  test.each(["iptables", "nftables"])(
    "%s: a firewall failure fails ADD and leaves no rule, link or reservation (ADD-6)",
    async (backend) => {
      const fw = new FakeFirewall({
        failWhen: (op) =>
          (op.op === "ipt.rule.append" && op.family === 6) ||
          (op.op === "nft.rule.add" && op.rule.startsWith("ip6 saddr"))
            ? "injected"
            : undefined,
      });
      const h = machine(fw);
      const before = h.kernel.snapshot(NS);
      const hostBefore = h.kernel.snapshot(HOST).links.filter((l) => l.kind === "veth");
      const add = await run(h, plugin, "ADD", { ipMasqBackend: backend });
      expect(add.code).toBe(1);
      expect(add.json?.msg).toContain("injected");
      baseline(h);
      expect(h.kernel.snapshot(NS)).toEqual(before);
      expect(h.kernel.snapshot(HOST).links.filter((l) => l.kind === "veth")).toEqual(hostBefore);
      expect(h.reserved(`${plugin}masq`)).toEqual([]);
    },
  );

  test("a failure after the rules went in removes them with the veth and the reservation (ADD-6)", async () => {
    const h = machine();
    const real = h.kernel;
    // Link reads fail once the firewall has changed: bridge's port wait, ptp's MAC read.
    h.ports.kernel = new Proxy(real, {
      get: (target, key) =>
        key === "link" && h.firewall.transactions.length > 0
          ? async () => {
              throw new Error("link read failed");
            }
          : bound(target, key),
    });
    const before = real.snapshot(NS);
    const add = await run(h, plugin, "ADD", { ipMasqBackend: "iptables" });
    expect(add.json?.msg).toBe("link read failed");
    baseline(h);
    expect(real.snapshot(NS)).toEqual(before);
    expect(h.reserved(`${plugin}masq`)).toEqual([]);
  });

  test("ADD starts the masquerade before the veth is made, DEL its teardown before the link goes", async () => {
    // The restore runs while the kernel works (docs/PERFORMANCE.md): the kernel step of
    // each call waits for a firewall transaction to have started, and the transaction for
    // that step to be done. A plugin doing one after the other fails here, whichever
    // comes first (each wait gives up after 2 s and fails the call).
    const h = machine();
    const real = h.kernel;
    const fake = h.firewall;
    const signal = () => {
      let fire = (): void => {};
      const fired = new Promise<void>((r) => (fire = r));
      return { fire, fired };
    };
    const waitFor = async (p: Promise<void>, what: string): Promise<void> => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const gaveUp = new Promise<never>((_, no) => {
        timer = setTimeout(() => no(new Error(`waited 2 s for ${what}`)), 2000);
      });
      await Promise.race([p, gaveUp]).finally(() => clearTimeout(timer));
    };
    let started = signal();
    let stepped = signal();
    h.ports.kernel = new Proxy(real, {
      get: (target, key) =>
        key === "apply"
          ? async (batch: Parameters<typeof real.apply>[0]) => {
              const step = batch.some((op) => op.op === "veth.add" || op.op === "link.del");
              if (step) await waitFor(started.fired, "the firewall transaction to start");
              const out = await real.apply(batch);
              if (step) stepped.fire();
              return out;
            }
          : bound(target, key),
    });
    h.ports.firewall = new Proxy(fake, {
      get: (target, key) =>
        key === "apply"
          ? async (tx: Parameters<typeof fake.apply>[0]) => {
              started.fire();
              await waitFor(stepped.fired, "the kernel step");
              return fake.apply(tx);
            }
          : bound(target, key),
    });
    const add = await run(h, plugin, "ADD", { ipMasqBackend: "iptables" });
    expect(add.json?.msg).toBeUndefined();
    expect(fake.dump().iptables["4 nat"]?.POSTROUTING).toHaveLength(1);
    started = signal();
    stepped = signal();
    const del = await run(h, plugin, "DEL", { ipMasqBackend: "iptables", prevResult: add.json });
    expect(del.json?.msg).toBeUndefined();
    baseline(h);
    expect(real.snapshot(NS).links.filter((l) => l.kind === "veth")).toEqual([]);
  });

  test("without ipMasq no firewall transaction is made, on ADD or DEL", async () => {
    const h = machine();
    await run(h, plugin, "ADD", { ipMasq: false });
    await run(h, plugin, "DEL", { ipMasq: false });
    expect(h.firewall.transactions).toEqual([]);
  });
});
