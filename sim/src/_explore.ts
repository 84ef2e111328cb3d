import fc from "fast-check";
import { HOST, KernelError, type Kernel, type KernelBatch, type KernelOp, type Netns } from "@tscni/kernel";
import { createLinuxKernel } from "@tscni/kernel/linux";
import { createThrowawayNetns, deleteThrowawayNetns } from "@tscni/kernel/testing";
import { FakeKernel } from "./fake-kernel.ts";
const C = "/ctr";
const names = ["eth0", "veth0", "br0"];
const SYSCTLS = ["net.ipv4.ip_forward", "net.ipv4.conf.all.forwarding", "net.ipv6.conf.all.forwarding"];
const ns = fc.constantFrom<Netns>(HOST, C);
const name = fc.constantFrom(...names);
const anyLink = fc.constantFrom("lo", ...names);
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });

const op: fc.Arbitrary<KernelOp> = fc.oneof(
  fc.record({ op: fc.constant("veth.add" as const), ns, name, mtu: opt(fc.constantFrom(1400, 1500)), peer: fc.record({ name, ns }) }),
  fc.record({ op: fc.constant("bridge.add" as const), ns, name: fc.constant("br0") }),
  fc.record({
    op: fc.constant("link.set" as const),
    ns,
    name: anyLink,
    up: opt(fc.boolean()),
    mtu: opt(fc.constantFrom(1300, 1500)),
    master: opt(fc.constantFrom("br0", null)),
  }),
  fc.record({ op: fc.constant("bridge-port.set" as const), ns, name, hairpin: opt(fc.boolean()), isolated: opt(fc.boolean()) }),
  fc.record({ op: fc.constant("link.del" as const), ns, name }),
  fc.record({ op: fc.constant("link.move" as const), ns, name, to: ns }).filter((o) => o.ns !== o.to),
  fc.record({
    op: fc.constantFrom("addr.add" as const, "addr.del" as const),
    ns,
    dev: anyLink,
    cidr: fc.constantFrom("198.18.0.1/24", "198.18.0.2/24", "198.18.1.1/24", "2001:db8::1/64", "2001:db8::2/64"),
    nodad: fc.constant(true),
  }),
  fc.oneof(
    fc.record({
      op: fc.constantFrom("route.add" as const, "route.del" as const),
      ns,
      dst: fc.constantFrom("0.0.0.0/0", "198.19.0.0/16"),
      gw: opt(fc.constantFrom("198.18.0.254", "198.18.1.254")),
      dev: opt(anyLink),
    }),
    fc.record({
      op: fc.constantFrom("route.add" as const, "route.del" as const),
      ns,
      dst: fc.constantFrom("::/0", "2001:db8:1::/64"),
      gw: opt(fc.constant("2001:db8::fe")),
      dev: opt(anyLink),
    }),
  ),
  fc.record({ op: fc.constant("sysctl.set" as const), ns, key: fc.constantFrom(...SYSCTLS), value: fc.constantFrom("0", "1") }),
);

function place(batch: KernelBatch, ctr: string): KernelOp[] {
  const r = (n: Netns): Netns => (n === C ? ctr : n);
  return batch.map((o): KernelOp => {
    if (o.op === "veth.add") return { ...o, ns: r(o.ns), peer: { ...o.peer, ns: r(o.peer.ns) } };
    if (o.op === "link.move") return { ...o, ns: r(o.ns), to: r(o.to) };
    return { ...o, ns: r(o.ns) };
  });
}
const isLinkLocal = (cidr: string): boolean => /^fe[89ab][0-9a-f]:/i.test(cidr) || /^ff/i.test(cidr);
async function observe(k: Kernel, n: Netns) {
  const links = (await k.links(n)).map((l) => ({ name: l.name, kind: l.kind, up: l.up, mtu: l.mtu, master: l.master, hairpin: l.hairpin, isolated: l.isolated, promisc: l.promisc })).sort((a, b) => a.name.localeCompare(b.name));
  const addrs = (await k.addresses(n)).filter((a) => !isLinkLocal(a.cidr)).map((a) => `${a.dev} ${a.cidr} ${a.scope}`).sort();
  const routes = (await k.routes(n)).filter((r) => !isLinkLocal(r.dst) && (r.table === undefined || r.table === 254)).map((r) => [r.dst, r.gw ?? "-", r.dev ?? "-", r.src ?? "-", r.scope, r.metric ?? 0, r.protocol ?? "-"].join(" ")).sort();
  const sysctls = await Promise.all(SYSCTLS.map((key) => k.sysctl(n, key)));
  return { links, addrs, routes, sysctls };
}
async function outcome(k: Kernel, batch: KernelBatch): Promise<string> {
  try { await k.apply(batch); return "ok"; } catch (e) { if (!(e instanceof KernelError)) throw e; return `${e.kind} at op ${e.opIndex} (${e.message})`; }
}
const ops = fc.sample(op, { numRuns: Number(process.argv[2] ?? 150), seed: Number(process.argv[3] ?? 1) });
// apply single ops after a common prelude, one at a time in fresh namespaces of 10 ops each
for (let i = 0; i < ops.length; i += 8) {
  const host = createThrowawayNetns("kd"); const ctr = createThrowawayNetns("kd", { loopbackUp: false });
  try {
    const fake = new FakeKernel(); fake.addNetns(ctr.path); const linux = createLinuxKernel({ host: host.path });
    for (const o of ops.slice(i, i + 8)) {
      const batch = place([o], ctr.path);
      const [w, g] = [await outcome(fake, batch), await outcome(linux, batch)];
      const wk = w.replace(/ \(.*$/, ""), gk = g.replace(/ \(.*$/, "");
      if (wk !== gk) { console.log("OUTCOME", JSON.stringify(o).replace(ctr.path, "C"), "fake:", w, "linux:", g); break; }
      let bad = false;
      for (const n of [HOST, ctr.path]) { const a = JSON.stringify(await observe(fake, n)), b = JSON.stringify(await observe(linux, n)); if (a !== b) { console.log("STATE", JSON.stringify(o).replace(ctr.path, "C"), n === HOST ? "host" : "C", "\n fake: ", a, "\n linux:", b); bad = true; } }
      if (bad) break;
    }
  } finally { deleteThrowawayNetns(host); deleteThrowawayNetns(ctr); }
}
