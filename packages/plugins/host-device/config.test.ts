import { describe, expect, test } from "bun:test";
import { CniError } from "@tscni/spec";
import { memorySysfs } from "./_memory-sysfs.ts";
import { parseHostDeviceConfig } from "./config.ts";

const empty = memorySysfs([]);
const base = { cniVersion: "1.0.0", name: "hd", type: "host-device" };

describe("host-device config", () => {
  test("a config naming no device fails with the reference's message as an invalid config", () => {
    let err: unknown;
    try {
      parseHostDeviceConfig(base, empty);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CniError);
    expect((err as CniError).code).toBe(7);
    expect((err as CniError).msg).toBe(`specify either "device", "hwaddr", "kernelpath" or "pciBusID"`);
  });

  test("a wrongly typed device fails as Go's unmarshal does", () => {
    expect(() => parseHostDeviceConfig({ ...base, device: 3 }, empty)).toThrow(
      "cannot unmarshal number into Go struct field NetConf.device of type string",
    );
  });

  test("the deviceID runtime config selects a PCI device and checks its driver for DPDK mode", () => {
    const sys = memorySysfs(["/bus/pci/devices/0000:04:00.5/net/ens5"], {
      "/bus/pci/devices/0000:04:00.5/driver": "vfio-pci",
    });
    const c = parseHostDeviceConfig({ ...base, runtimeConfig: { deviceID: "0000:04:00.5" } }, sys);
    expect(c.pciBusID).toBe("0000:04:00.5");
    expect(c.dpdkMode).toBe(true);
  });

  test("a kernel driver is not DPDK mode", () => {
    const sys = memorySysfs(["/bus/pci/devices/0000:04:00.5/net/ens5"], {
      "/bus/pci/devices/0000:04:00.5/driver": "ixgbevf",
    });
    expect(parseHostDeviceConfig({ ...base, pciBusID: "0000:04:00.5" }, sys).dpdkMode).toBe(false);
  });

  test("the deviceID runtime config selects an auxiliary-bus device", () => {
    const sys = memorySysfs(["/bus/auxiliary/devices/mlx5_core.sf.4/net/enp1s0f0s3"]);
    const c = parseHostDeviceConfig({ ...base, runtimeConfig: { deviceID: "mlx5_core.sf.4" } }, sys);
    expect(c.auxDevice).toBe("mlx5_core.sf.4");
    expect(c.pciBusID).toBe("");
  });

  test("an unknown deviceID fails with the reference's message", () => {
    expect(() => parseHostDeviceConfig({ ...base, runtimeConfig: { deviceID: "nope" } }, empty)).toThrow(
      "runtime config DeviceID nope not found or unsupported",
    );
  });
});
