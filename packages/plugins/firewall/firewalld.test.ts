import { describe, expect, test } from "bun:test";
import { fakeFirewalld } from "../testing/fake-dbus.ts";
import {
  busctlArgs,
  firewalldAdd,
  firewalldCheck,
  firewalldDel,
  firewalldRunning,
  nameOwnerCall,
  zoneCall,
} from "./firewalld.ts";
import { systemBusSocket } from "./real-dbus.ts";

describe("firewalld D-Bus calls", () => {
  test("the running check asks the bus who owns org.fedoraproject.FirewallD1, as isFirewalldRunning", () => {
    expect(busctlArgs(nameOwnerCall())).toEqual([
      "busctl",
      "--system",
      "call",
      "org.freedesktop.DBus",
      "/org/freedesktop/DBus",
      "org.freedesktop.DBus",
      "GetNameOwner",
      "s",
      "org.fedoraproject.FirewallD1",
    ]);
  });

  test("zone calls go to the zone interface with the zone and the host CIDR as two strings", () => {
    expect(busctlArgs(zoneCall("addSource", "trusted", "198.18.0.5/32"))).toEqual([
      "busctl",
      "--system",
      "call",
      "org.fedoraproject.FirewallD1",
      "/org/fedoraproject/FirewallD1",
      "org.fedoraproject.FirewallD1.zone",
      "addSource",
      "ss",
      "trusted",
      "198.18.0.5/32",
    ]);
    expect(zoneCall("removeSource", "internal", "2001:db8::5/128").member).toBe("removeSource");
    expect(zoneCall("querySource", "internal", "2001:db8::5/128").args).toEqual(["internal", "2001:db8::5/128"]);
  });

  test("the system bus socket comes from DBUS_SYSTEM_BUS_ADDRESS, else the well-known path", () => {
    expect(systemBusSocket({})).toBe("/var/run/dbus/system_bus_socket");
    expect(systemBusSocket({ DBUS_SYSTEM_BUS_ADDRESS: "unix:path=/tmp/bus,guid=1" })).toBe("/tmp/bus");
  });
});

describe("the firewalld backend", () => {
  test("firewalld counts as running only when the bus is there and the name has an owner", async () => {
    expect(await firewalldRunning(fakeFirewalld())).toBe(true);
    expect(await firewalldRunning(fakeFirewalld({ running: false }))).toBe(false);
    const noBus = fakeFirewalld({ available: false });
    expect(await firewalldRunning(noBus)).toBe(false);
    expect(noBus.calls).toEqual([]);
  });

  test("ADD adds every address to the zone and treats ZONE_ALREADY_SET as done", async () => {
    const bus = fakeFirewalld();
    await firewalldAdd(bus, "trusted", ["198.18.0.5/32", "2001:db8::5/128"]);
    await firewalldAdd(bus, "trusted", ["198.18.0.5/32"]);
    expect([...(bus.zones.get("trusted") ?? [])]).toEqual(["198.18.0.5/32", "2001:db8::5/128"]);
  });

  test("a failed ADD removes the sources it added and reports the reference's message", async () => {
    const bus = fakeFirewalld({ failAdd: "2001:db8::5/128" });
    await expect(firewalldAdd(bus, "trusted", ["198.18.0.5/32", "2001:db8::5/128"])).rejects.toThrow(
      "failed to add the address 2001:db8::5/128 to trusted zone: INVALID_ADDR: 2001:db8::5/128",
    );
    expect([...(bus.zones.get("trusted") ?? [])]).toEqual([]);
  });

  test("CHECK fails for an address that is not a source of the zone, DEL removes and tolerates absence", async () => {
    const bus = fakeFirewalld();
    await firewalldAdd(bus, "trusted", ["198.18.0.5/32"]);
    await firewalldCheck(bus, "trusted", ["198.18.0.5/32"]);
    await expect(firewalldCheck(bus, "trusted", ["198.18.0.6/32"])).rejects.toThrow(
      "failed to find the address 198.18.0.6/32 in trusted zone",
    );
    await firewalldDel(bus, "trusted", ["198.18.0.5/32", "198.18.0.6/32"]);
    await firewalldDel(bus, "trusted", ["198.18.0.5/32"]);
    await expect(firewalldCheck(bus, "trusted", ["198.18.0.5/32"])).rejects.toThrow("failed to find");
  });
});
