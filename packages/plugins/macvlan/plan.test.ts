import { describe, expect, test } from "bun:test";
import { HOST } from "@tscni/kernel";
import { parseMacvlanConfig } from "./config.ts";
import { macvlanCreateOp } from "./plan.ts";

const NS = "/var/run/netns/c1";
const conf = (extra: Record<string, unknown> = {}, args = "") =>
  parseMacvlanConfig({ cniVersion: "1.0.0", name: "m", type: "macvlan", ...extra }, args);

describe("macvlanCreateOp", () => {
  test("creates the link on the master in the host namespace, born in the container under the temporary name", () => {
    expect(macvlanCreateOp(conf(), "eth9", NS, "veth0000beef")).toEqual({
      op: "macvlan.add",
      ns: HOST,
      name: "veth0000beef",
      parent: "eth9",
      mode: "bridge",
      into: NS,
    });
  });

  test("with linkInContainer the link is made inside the container, on a master that lives there", () => {
    expect(macvlanCreateOp(conf({ linkInContainer: true, mode: "vepa" }), "eth9", NS, "veth0000beef")).toEqual({
      op: "macvlan.add",
      ns: NS,
      name: "veth0000beef",
      parent: "eth9",
      mode: "vepa",
    });
  });

  test("mtu, bcqueuelen and the MAC go on the link only when set; a MAC is normalised as Go's ParseMAC reads it", () => {
    expect(
      macvlanCreateOp(conf({ mtu: 1400, bcqueuelen: 100 }, "MAC=02-AA-bb-cc-dd-ee"), "eth9", NS, "t"),
    ).toMatchObject({ mtu: 1400, bcqueuelen: 100, mac: "02:aa:bb:cc:dd:ee" });
    expect(macvlanCreateOp(conf({ runtimeConfig: { mac: "02aa.bbcc.ddee" } }), "eth9", NS, "t").mac).toBe(
      "02:aa:bb:cc:dd:ee",
    );
  });

  test("a bad mode fails before a bad MAC, both with the reference's messages", () => {
    expect(() => macvlanCreateOp(conf({ mode: "nope", mac: "zz" }), "eth9", NS, "t")).toThrow(
      'unknown macvlan mode: "nope"',
    );
    expect(() => macvlanCreateOp(conf({ mac: "zz" }), "eth9", NS, "t")).toThrow(
      "invalid args zz for MAC addr: address zz: invalid MAC address",
    );
  });
});
