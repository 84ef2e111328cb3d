import { describe, expect, test } from "bun:test";
import { HOST } from "@tscni/kernel";
import { FakeKernel } from "@tscni/kernel/fake";
import { memorySysfs } from "./_memory-sysfs.ts";
import { parseHostDeviceConfig } from "./config.ts";
import { findHostDevice } from "./find.ts";

function machine(): FakeKernel {
  const k = new FakeKernel();
  k.applySync([
    { op: "veth.add", ns: HOST, name: "nic0", mac: "02:00:00:00:00:0a", peer: { name: "nic0p", ns: HOST } },
  ]);
  return k;
}
const base = { cniVersion: "1.0.0", name: "hd", type: "host-device" };
const sys = memorySysfs(
  ["/devices/pci0000:00/0000:00:03.0/net/nic0", "/bus/pci/devices/0000:00:03.0/virtio0/net/nic0"],
  {
    "/bus/pci/devices/0000:00:03.0/driver": "virtio-pci",
  },
);
const find = (extra: Record<string, unknown>) =>
  findHostDevice(machine(), parseHostDeviceConfig({ ...base, ...extra }, sys), sys);

describe("finding the host device", () => {
  test("by name", async () => expect((await find({ device: "nic0" })).name).toBe("nic0"));
  test("by hwaddr, whatever its case", async () =>
    expect((await find({ hwaddr: "02:00:00:00:00:0A" })).name).toBe("nic0"));
  test("by kernelpath through the device's net directory", async () =>
    expect((await find({ kernelpath: "/sys/devices/pci0000:00/0000:00:03.0" })).name).toBe("nic0"));
  test("by pciBusID through a virtio child's net directory", async () =>
    expect((await find({ pciBusID: "0000:00:03.0" })).name).toBe("nic0"));
  test("a missing name fails as the reference's LinkByName", async () =>
    expect(find({ device: "nope" })).rejects.toThrow("failed to find host device: Link not found"));
  test("an unknown hwaddr fails as the reference", async () =>
    expect(find({ hwaddr: "02:00:00:00:00:99" })).rejects.toThrow(
      "failed to find host device: failed to find physical interface",
    ));
  test("a bad hwaddr fails to parse", async () =>
    expect(find({ hwaddr: "zz" })).rejects.toThrow('failed to parse MAC address "zz"'));
  test("a kernelpath outside /sys/devices is refused", async () =>
    expect(find({ kernelpath: "/etc/x" })).rejects.toThrow(
      'kernel device path "/etc/x" must be absolute and begin with /sys/devices/',
    ));
});
