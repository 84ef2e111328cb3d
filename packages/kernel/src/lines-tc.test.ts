import { describe, expect, test } from "bun:test";
import { KernelError } from "./kernel.ts";
import { handleText } from "./lines-tc.ts";
import { renderOp } from "./lines.ts";
import { HOST, type KernelOp } from "./ops.ts";
import { ETH_P_ALL, TC_H_INGRESS, TC_H_ROOT } from "./ops-tc.ts";
import { renderBatch } from "./render.ts";
import { parseKernelBatch } from "./schema.ts";

const tbf: KernelOp = {
  op: "qdisc.add",
  ns: HOST,
  dev: "veth1",
  kind: "tbf",
  handle: 0x10000,
  parent: TC_H_ROOT,
  tbf: { rate: 1_000_000, limit: 35_000, buffer: 156_250 },
};
const filter: KernelOp = {
  op: "filter.add",
  ns: HOST,
  dev: "veth1",
  parent: 0xffff0000,
  priority: 1,
  protocol: ETH_P_ALL,
  kind: "u32",
  classId: 0x10001,
  actions: [
    { kind: "mirred", action: "egress-redirect", dev: "bwp0", verdict: "stolen" },
    { kind: "mirred", action: "egress-redirect", dev: "bwp0", verdict: "pass" },
  ],
};

describe("traffic-control lines", () => {
  test("handles print as tc prints them", () => {
    expect([handleText(0x10000), handleText(0xffff0000), handleText(0x10001), handleText(0)]).toEqual([
      "1:",
      "ffff:",
      "1:1",
      "0:",
    ]);
  });

  test("a tbf is a tc line with the rate in bits and the burst its buffer amounts to", () => {
    expect(renderOp(tbf, "/proc/1/ns/net")).toEqual({
      tool: "tc",
      line: "qdisc add dev veth1 root handle 1: tbf rate 8000000bit burst 10000 limit 35000",
    });
  });

  test("the ingress qdisc, its deletion (by parent alone, as netlink sends it) and the root's deletion are tc lines", () => {
    expect(
      renderOp(
        { op: "qdisc.add", ns: HOST, dev: "veth1", kind: "ingress", handle: 0xffff0000, parent: TC_H_INGRESS },
        "",
      ).line,
    ).toBe("qdisc add dev veth1 handle ffff: ingress");
    expect(renderOp({ op: "qdisc.del", ns: HOST, dev: "veth1", parent: TC_H_INGRESS }, "").line).toBe(
      "qdisc del dev veth1 parent ffff:fff1",
    );
    expect(renderOp({ op: "qdisc.del", ns: HOST, dev: "veth1", parent: TC_H_ROOT }, "").line).toBe(
      "qdisc del dev veth1 root",
    );
  });

  test("the filter redirects with tc's mirred syntax, which has no verdict for a redirect", () => {
    expect(renderOp(filter, "").line).toBe(
      "filter add dev veth1 parent ffff: protocol all prio 1 u32 match u32 0 0 flowid 1:1 action mirred egress redirect dev bwp0 action mirred egress redirect dev bwp0",
    );
  });

  test("an ifb is an ip line, created up", () => {
    expect(renderOp({ op: "ifb.add", ns: HOST, name: "bwp0", mtu: 1400, txqlen: 0, up: true }, "")).toEqual({
      tool: "ip",
      line: "link add bwp0 mtu 1400 txqueuelen 0 up type ifb",
    });
  });

  test("a device name that would break the batch line is refused", () => {
    expect(() => renderOp({ ...tbf, dev: "a b" } as KernelOp, "")).toThrow(KernelError);
  });

  test("the script runs tc lines through one tc -batch per run of them", () => {
    const script = renderBatch([{ op: "ifb.add", ns: HOST, name: "bwp0", up: true }, tbf, filter]);
    expect(script).toContain("ip -batch - <<'EOF'\nlink add bwp0 up type ifb\nEOF");
    expect(script).toContain("tc -batch - <<'EOF'\nqdisc add dev veth1 root handle 1: tbf");
    expect(script.match(/tc -batch/g)).toHaveLength(1);
  });
});

describe("traffic-control op schemas", () => {
  test("accept the ops the bandwidth plugin plans", () => {
    expect(
      parseKernelBatch([
        tbf,
        filter,
        { op: "ifb.add", ns: HOST, name: "bwp0", mtu: 1400, txqlen: 0, up: true },
        { op: "qdisc.del", ns: HOST, dev: "veth1", parent: TC_H_ROOT },
      ]),
    ).toEqual({
      ok: true,
      batch: [
        tbf,
        filter,
        { op: "ifb.add", ns: HOST, name: "bwp0", mtu: 1400, txqlen: 0, up: true },
        { op: "qdisc.del", ns: HOST, dev: "veth1", parent: TC_H_ROOT },
      ],
    });
  });

  test("refuse an unknown qdisc kind, a bad handle and an unsafe device name, with paths", () => {
    const r = parseKernelBatch([
      { ...tbf, kind: "htb" },
      { ...tbf, handle: -1 },
      { ...filter, dev: "#x" },
    ]);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.map((i) => i.split(":")[0])).toEqual(["0.kind", "1.handle", "2.dev"]);
  });
});
