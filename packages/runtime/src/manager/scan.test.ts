import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { managerFixture } from "../testing/manager-fixture.ts";
import type { ManagerFixture } from "../testing/manager-fixture.ts";
import { NetworkNotInitializedError } from "./errors.ts";

let fx: ManagerFixture;
beforeEach(() => {
  fx = managerFixture();
  fx.sb.install("bridge", "ptp", "loopback");
});
afterEach(() => fx.sb.cleanup());

const list = (name: string, ...types: string[]): Record<string, unknown> => ({
  cniVersion: "1.0.0",
  name,
  plugins: types.map((type) => ({ type })),
});

describe("the default network", () => {
  test("is the first valid file by name among .conf, .conflist and .json files", async () => {
    fx.conf("20-second.conflist", list("second", "bridge"));
    fx.conf("10-first.json", { cniVersion: "1.0.0", name: "first", type: "ptp" });
    fx.conf("05-ignored.yaml", list("yaml", "bridge"));
    fx.conf("30-third.conf", { cniVersion: "1.0.0", name: "third", type: "bridge" });
    const network = await fx.manager().status();
    expect(network.list.name).toBe("first");
    expect(network.list.source).toEndWith("10-first.json");
  });

  test("wraps a .conf into a one-plugin list", async () => {
    fx.conf("10-net.conf", { cniVersion: "1.0.0", name: "single", type: "bridge", bridge: "cni0" });
    const { list: l } = await fx.manager().status();
    expect(l.name).toBe("single");
    expect(l.plugins.map((p) => p.network.type)).toEqual(["bridge"]);
    expect(l.plugins[0]?.network).toMatchObject({ bridge: "cni0" });
  });

  test("skips a .conf without type with a warning (perhaps a list saved as .conf)", async () => {
    fx.conf("10-list-as-conf.conf", list("oops", "bridge"));
    fx.conf("20-good.conflist", list("good", "ptp"));
    const pods = fx.manager();
    expect((await pods.status()).list.name).toBe("good");
    expect(pods.warnings).toHaveLength(1);
    expect(pods.warnings[0]).toContain("10-list-as-conf.conf");
    expect(pods.warnings[0]).toContain("perhaps this is a .conflist?");
    expect(fx.warnings).toEqual([...pods.warnings]);
  });

  test("skips a list without plugins", async () => {
    fx.conf("10-empty.conflist", { cniVersion: "1.0.0", name: "empty", plugins: [] });
    fx.conf("20-good.conflist", list("good", "bridge"));
    const pods = fx.manager();
    expect((await pods.status()).list.name).toBe("good");
    expect(pods.warnings.join("\n")).toContain("10-empty.conflist");
  });

  test("skips a network whose plugins are not all installed, as kubelet does", async () => {
    fx.conf("10-missing.conflist", list("missing", "bridge", "portmap"));
    fx.conf("20-good.conflist", list("good", "bridge"));
    const pods = fx.manager();
    expect((await pods.status()).list.name).toBe("good");
    expect(pods.warnings[0]).toContain('failed to find plugin "portmap"');
  });

  test("skips a network whose plugins do not support its version (kubelet's ValidateNetworkList)", async () => {
    fx.conf("10-old.conflist", { ...list("old", "bridge"), cniVersion: "0.2.0" });
    fx.conf("20-good.conflist", list("good", "bridge"));
    const pods = fx.manager();
    expect((await pods.status()).list.name).toBe("good");
    expect(pods.warnings[0]).toContain('does not support config version "0.2.0"');
  });

  test("looks plugins up in the vendor dir /opt/<type>/bin before the bin dir", async () => {
    const vendor = join(fx.sb.dir, "opt", "vendored", "bin");
    mkdirSync(vendor, { recursive: true });
    copyFileSync(join(fx.sb.binDir, "bridge"), join(vendor, "vendored"));
    chmodSync(join(vendor, "vendored"), 0o755);
    fx.conf("10-vendored.conflist", list("vendored", "vendored", "bridge"));
    const network = await fx.manager().status();
    expect(network.list.name).toBe("vendored");
    expect(network.paths).toEqual([vendor, fx.sb.binDir]);
  });
});

describe("status", () => {
  test("reports not initialized when the config dir has no config file", async () => {
    const err = await fx
      .manager()
      .status()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkNotInitializedError);
    expect((err as NetworkNotInitializedError).msg).toBe(
      `network plugin not initialized: no networks found in ${fx.confDir}`,
    );
    expect((err as NetworkNotInitializedError).code).toBe(50);
  });

  test("reports not initialized while no file is valid, naming the skipped files in details", async () => {
    fx.conf("10-bad.conf", "{not json");
    const err = (await fx
      .manager()
      .status()
      .catch((e: unknown) => e)) as NetworkNotInitializedError;
    expect(err.msg).toBe(`network plugin not initialized: no valid networks found in ${fx.confDir}`);
    expect(err.details).toContain("10-bad.conf");
  });

  test("re-reads the dir each time, so a network written later is picked up and a removed one is dropped", async () => {
    const pods = fx.manager();
    await expect(pods.status()).rejects.toThrow("not initialized");
    fx.conf("10-net.conflist", list("late", "bridge"));
    expect((await pods.status()).list.name).toBe("late");
    fx.conf("05-earlier.conflist", list("earlier", "ptp"));
    expect((await pods.status()).list.name).toBe("earlier");
    rmSync(join(fx.confDir, "05-earlier.conflist"));
    rmSync(join(fx.confDir, "10-net.conflist"));
    await expect(pods.status()).rejects.toThrow(`no networks found in ${fx.confDir}`);
    expect(pods.defaultNetwork).toBeUndefined();
  });

  test("warns about a skipped file once while it stays skipped", async () => {
    writeFileSync(join(fx.confDir, "10-bad.conf"), "{}");
    fx.conf("20-good.conflist", list("good", "bridge"));
    const pods = fx.manager();
    await pods.status();
    await pods.status();
    expect(fx.warnings).toHaveLength(1);
  });
});
