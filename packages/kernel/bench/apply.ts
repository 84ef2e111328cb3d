/**
 * Cost of one kernel batch through the Linux driver (root; throwaway namespaces only):
 * the ops of a bridge ADD (a veth into a container, its host end on a bridge, address,
 * default route, a sysctl) applied and deleted N times, with setns and with nsenter.
 * Run: bun packages/kernel/bench/apply.ts [N]
 */
import { HOST, type KernelBatch } from "../src/index.ts";
import { createLinuxKernel } from "../src/linux/index.ts";
import { createThrowawayNetns, deleteThrowawayNetns } from "../src/testing/throwaway.ts";

const n = Number(process.argv[2] ?? 50);
const host = createThrowawayNetns("kb");
const ctr = createThrowawayNetns("kb");
try {
  const C = ctr.path;
  const add: KernelBatch = [
    { op: "veth.add", ns: C, name: "eth0", peer: { name: "veth0", ns: HOST } },
    { op: "link.set", ns: C, name: "eth0", up: true },
    { op: "addr.add", ns: C, dev: "eth0", cidr: "198.18.0.5/24", nodad: true },
    { op: "route.add", ns: C, dst: "0.0.0.0/0", gw: "198.18.0.1" },
    { op: "sysctl.set", ns: C, key: "net.ipv4.conf.eth0.arp_notify", value: "1" },
    { op: "link.set", ns: HOST, name: "veth0", master: "br0", up: true },
    { op: "bridge-port.set", ns: HOST, name: "veth0", hairpin: true },
  ];
  const del: KernelBatch = [{ op: "link.del", ns: C, name: "eth0" }];
  for (const mode of ["setns", "nsenter"] as const) {
    const k = createLinuxKernel({ host: host.path, netnsSwitch: mode });
    await k.apply([
      { op: "bridge.add", ns: HOST, name: "br0" },
      { op: "link.set", ns: HOST, name: "br0", up: true },
    ]);
    await k.apply(add);
    await k.apply(del);
    let tAdd = 0;
    let tDel = 0;
    let tRead = 0;
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await k.apply(add);
      const t1 = performance.now();
      await k.links(C);
      const t2 = performance.now();
      await k.apply(del);
      const t3 = performance.now();
      tAdd += t1 - t0;
      tRead += t2 - t1;
      tDel += t3 - t2;
    }
    await k.apply([{ op: "link.del", ns: HOST, name: "br0" }]);
    const ms = (t: number) => `${(t / n).toFixed(2)} ms`;
    console.log(
      `${mode}: ADD batch (7 ops, 3 segments) ${ms(tAdd)}, links() ${ms(tRead)}, DEL batch (1 op) ${ms(tDel)}`,
    );
  }
} finally {
  deleteThrowawayNetns(host);
  deleteThrowawayNetns(ctr);
}
