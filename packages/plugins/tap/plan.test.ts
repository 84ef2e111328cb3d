import { describe, expect, test } from "bun:test";
import { parseTapConfig } from "./config.ts";
import { tapAddOp, tapSteps } from "./plan.ts";

const NS = "/var/run/netns/c1";
const conf = (extra: Record<string, unknown> = {}, args = "") =>
  parseTapConfig({ cniVersion: "1.0.0", name: "t", type: "tap", ...extra }, args);

describe("tap config", () => {
  test("the MAC comes from CNI_ARGS over the config, and from runtimeConfig over both", () => {
    expect(conf({ mac: "02:00:00:00:00:01" }).mac).toBe("02:00:00:00:00:01");
    expect(conf({ mac: "02:00:00:00:00:01" }, "IgnoreUnknown=1;MAC=02:00:00:00:00:02").mac).toBe("02:00:00:00:00:02");
    expect(
      conf({ mac: "02:00:00:00:00:01", runtimeConfig: { mac: "02:00:00:00:00:03" } }, "MAC=02:00:00:00:00:02").mac,
    ).toBe("02:00:00:00:00:03");
  });

  test("an unknown CNI_ARGS key without IgnoreUnknown fails as LoadArgs does", () => {
    expect(() => conf({}, "FOO=1")).toThrow("ARGS: unknown args");
  });

  test("a bad MAC and a negative owner are refused", () => {
    expect(() => conf({ mac: "zz" })).toThrow("invalid args zz for MAC addr");
    expect(() => conf({ owner: -1 })).toThrow(
      "cannot unmarshal number into Go struct field NetConf.owner of type uint32",
    );
  });

  test("selinuxContext is accepted", () =>
    expect(conf({ selinuxContext: "system_u:system_r:container_t:s0" }).selinuxContext).toBe(
      "system_u:system_r:container_t:s0",
    ));
});

describe("tap plan", () => {
  test("without both owner and group, the flags are ip tuntap's: no packet information", () => {
    expect(tapAddOp(conf({ owner: 1000, multiQueue: true }), NS, "eth0")).toEqual({
      op: "tap.add",
      ns: NS,
      name: "eth0",
      owner: 1000,
      multiQueue: true,
    });
  });

  test("with owner and group, the flags are netlink Tuntap's: vnet header, packet information unless multi-queue", () => {
    expect(tapAddOp(conf({ owner: 1, group: 2 }), NS, "eth0")).toMatchObject({ vnetHdr: true, pi: true });
    expect(tapAddOp(conf({ owner: 1, group: 2, multiQueue: true }), NS, "eth0")).toEqual({
      op: "tap.add",
      ns: NS,
      name: "eth0",
      owner: 1,
      group: 2,
      multiQueue: true,
      vnetHdr: true,
    });
    expect(tapAddOp(conf({ owner: 1, group: 2, selinuxContext: "x" }), NS, "eth0").vnetHdr).toBeUndefined();
  });

  test("the steps make the tap, set MTU and MAC, enslave it and bring it up; only the tap has an undo", () => {
    const steps = tapSteps(conf({ mtu: 1400, mac: "02:00:00:00:00:05", bridge: "br0" }), NS, "eth0", {
      containerLinks: [
        { index: 2, name: "br0", kind: "bridge", mac: "", mtu: 1500, up: true, operState: "UP", promisc: false },
      ],
    });
    expect(steps.map((s) => s.op)).toEqual([
      { op: "tap.add", ns: NS, name: "eth0" },
      { op: "link.set", ns: NS, name: "eth0", mtu: 1400, mac: "02:00:00:00:00:05" },
      { op: "link.set", ns: NS, name: "eth0", master: "br0" },
      { op: "link.set", ns: NS, name: "eth0", up: true },
    ]);
    expect(steps.filter((s) => s.undo !== undefined).map((s) => s.undo)).toEqual([
      { op: "link.del", ns: NS, name: "eth0" },
    ]);
  });

  test("a taken name or a missing bridge fails before anything is made", () => {
    const eth0 = {
      index: 2,
      name: "eth0",
      kind: "veth",
      mac: "",
      mtu: 1500,
      up: true,
      operState: "UP",
      promisc: false,
    };
    expect(() => tapSteps(conf(), NS, "eth0", { containerLinks: [eth0] })).toThrow(
      'failed to rename tap to "eth0": file exists',
    );
    expect(() => tapSteps(conf({ bridge: "br9" }), NS, "eth0", { containerLinks: [] })).toThrow(
      "failed to get bridge br9: Link not found",
    );
  });
});
