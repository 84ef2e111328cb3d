import { describe, expect, test } from "bun:test";
import { pluginMain, type PluginIO } from "@tscni/skel";
import { definition } from "./index.ts";

async function run(command: string, config: Record<string, unknown>, env: Record<string, string> = {}) {
  let stdout = "";
  const io: PluginIO = {
    env: {
      CNI_COMMAND: command,
      CNI_CONTAINERID: "ctr1",
      CNI_NETNS: "/var/run/netns/tscni-static",
      CNI_IFNAME: "eth0",
      CNI_PATH: "/opt/cni/bin",
      ...env,
    },
    readStdin: async () => new TextEncoder().encode(JSON.stringify(config)),
    stdout: (s) => void (stdout += s),
    stderr: () => {},
  };
  const code = await pluginMain(definition, io, { sameNetns: () => false });
  return { code, stdout, json: () => JSON.parse(stdout) as Record<string, unknown> };
}

const ipam = {
  type: "static",
  addresses: [{ address: "198.18.0.5/24", gateway: "198.18.0.1" }, { address: "2001:db8::5/64" }],
  routes: [{ dst: "0.0.0.0/0" }],
  dns: { nameservers: ["198.18.0.53"] },
};
const conf = (cniVersion: string, extra: Record<string, unknown> = {}) => ({
  cniVersion,
  name: "st",
  type: "bridge",
  ipam,
  ...extra,
});

describe("static through the plugin framework", () => {
  test("ADD prints the addresses, routes and DNS in the config's version (ADD-2)", async () => {
    const r = await run("ADD", conf("1.0.0"));
    expect(r.code).toBe(0);
    expect(r.json()).toEqual({
      cniVersion: "1.0.0",
      ips: [{ address: "198.18.0.5/24", gateway: "198.18.0.1" }, { address: "2001:db8::5/64" }],
      routes: [{ dst: "0.0.0.0/0" }],
      dns: { nameservers: ["198.18.0.53"] },
    });
  });

  test("ADD at 0.2.0 prints ip4 and ip6 with the routes under their family (§3.2)", async () => {
    const r = await run("ADD", conf("0.2.0"));
    expect(r.json()).toMatchObject({
      cniVersion: "0.2.0",
      ip4: { ip: "198.18.0.5/24", gateway: "198.18.0.1", routes: [{ dst: "0.0.0.0/0" }] },
      ip6: { ip: "2001:db8::5/64" },
    });
  });

  test("CHECK passes when prevResult holds the addresses with their gateways (CHK-1)", async () => {
    const prevResult = (await run("ADD", conf("1.0.0"))).json();
    const r = await run("CHECK", conf("1.0.0", { prevResult }));
    expect([r.code, r.stdout]).toEqual([0, ""]);
  });

  test("CHECK fails naming the address whose gateway differs, and without prevResult", async () => {
    const prevResult = { cniVersion: "1.0.0", ips: [{ address: "198.18.0.5/24", gateway: "198.18.0.254" }] };
    const r = await run("CHECK", conf("1.0.0", { prevResult }));
    expect(r.code).toBe(1);
    expect(r.json()).toMatchObject({ code: 999, msg: "static: Failed to match addr 198.18.0.5 on interface eth0" });
    expect((await run("CHECK", conf("1.0.0"))).json()).toMatchObject({ msg: "Required prevResult missing" });
  });

  test("DEL succeeds with nothing to release, also twice (DEL-2, DEL-3)", async () => {
    expect((await run("DEL", conf("1.0.0"))).code).toBe(0);
    expect((await run("DEL", conf("1.0.0"))).code).toBe(0);
  });

  test("the ips capability wins over CNI_ARGS IP=", async () => {
    const r = await run("ADD", conf("1.0.0", { runtimeConfig: { ips: ["198.18.7.7/24"] } }), {
      CNI_ARGS: "IP=198.18.6.6/24",
    });
    expect(r.json().ips).toEqual([{ address: "198.18.7.7/24" }]);
  });
});
