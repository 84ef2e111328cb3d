import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { makeSandbox } from "@tscni/runtime/testing";
import type { Sandbox } from "@tscni/runtime/testing";
import type { CommandIO, Verb } from "../io.ts";
import { cnitoolContainerID, parseCniArgsStrict, parseCnitoolArgs } from "./_cnitool.ts";
import { verb as add } from "./add.ts";
import { verb as cache } from "./cache.ts";
import { verb as check } from "./check.ts";
import { verb as del } from "./del.ts";
import { verb as gc } from "./gc.ts";
import { verb as status } from "./status.ts";

describe("cnitool's container ID", () => {
  test("is cnitool- and the hex of the first 10 bytes of SHA-512 of the netns path (CT-3)", () => {
    const out = Bun.spawnSync(["sh", "-c", "printf %s /var/run/netns/test | sha512sum | cut -c1-20"]);
    expect(cnitoolContainerID("/var/run/netns/test")).toBe(`cnitool-${out.stdout.toString().trim()}`);
    expect(cnitoolContainerID("/var/run/netns/test")).toMatch(/^cnitool-[0-9a-f]{20}$/);
  });
});

describe("cnitool's CNI_ARGS parsing", () => {
  test("accepts K=V pairs separated by ';' (CT-2)", () => {
    expect(parseCniArgsStrict("IgnoreUnknown=1;IP=198.18.0.9")).toEqual([
      ["IgnoreUnknown", "1"],
      ["IP", "198.18.0.9"],
    ]);
  });

  test("rejects any piece that is not exactly a non-empty key and value (CT-2)", () => {
    for (const bad of ["A", "A=", "=b", "A=b=c"])
      expect(() => parseCniArgsStrict(bad)).toThrow(`invalid CNI_ARGS pair "${bad}"`);
    expect(() => parseCniArgsStrict("A=1;")).toThrow('invalid CNI_ARGS pair ""');
  });
});

describe("cnitool's flags", () => {
  test("take -i/--ifname, --cache-dir and --timeout in both spellings (CT-1)", () => {
    expect(parseCnitoolArgs(["net", "-i", "net1", "/ns"])).toEqual({ positionals: ["net", "/ns"], ifName: "net1" });
    expect(parseCnitoolArgs(["--ifname=eth3", "--cache-dir", "/c", "--timeout=1.5", "a", "b"])).toEqual({
      positionals: ["a", "b"],
      ifName: "eth3",
      cacheDir: "/c",
      timeoutMs: 1500,
    });
    expect(() => parseCnitoolArgs(["--bogus"])).toThrow('unknown flag "--bogus"');
  });
});

describe("the cnitool verbs", () => {
  let sb: Sandbox;
  let confDir: string;
  let out: string;
  let err: string;

  beforeEach(() => {
    sb = makeSandbox();
    sb.install("a", "b");
    confDir = join(sb.dir, "net.d");
    mkdirSync(confDir);
    const plugins = [
      { type: "a", capabilities: { portMappings: true }, fake: { log: sb.log } },
      { type: "b", fake: { log: sb.log } },
    ];
    writeFileSync(join(confDir, "10-net1.conflist"), JSON.stringify({ cniVersion: "1.1.0", name: "net1", plugins }));
  });
  afterEach(() => sb.cleanup());

  const run = (verb: Verb, argv: string[], env: Record<string, string> = {}): Promise<number> => {
    out = "";
    err = "";
    const io: CommandIO = {
      argv,
      env: { NETCONFPATH: confDir, CNI_PATH: sb.binDir, CNI_CACHE_DIR: sb.cacheDir, ...env },
      readStdin: async () => new Uint8Array(),
      stdout: (t) => void (out += t),
      stderr: (t) => void (err += t),
    };
    return verb.run(io);
  };

  test("add prints the result and runs the plugins with cnitool's container ID, ifname and args (CT-2..CT-4)", async () => {
    const code = await run(add, ["net1", "relative/ns"], {
      CNI_ARGS: "IgnoreUnknown=1",
      CAP_ARGS: '{"portMappings":[{"hostPort":80}],"mac":"x"}',
      CNI_IFNAME: "eth7",
    });
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({ cniVersion: "1.1.0", interfaces: [{ name: "a" }, { name: "b" }] });
    const [first] = sb.calls();
    const abs = resolve("relative/ns");
    expect(first?.env).toMatchObject({
      CNI_CONTAINERID: cnitoolContainerID(abs),
      CNI_NETNS: abs,
      CNI_IFNAME: "eth7",
      CNI_ARGS: "IgnoreUnknown=1",
    });
    expect((first?.stdin as Record<string, unknown>).runtimeConfig).toEqual({ portMappings: [{ hostPort: 80 }] });
  });

  test("the ifname flag wins over CNI_IFNAME, which wins over eth0 (CT-2)", async () => {
    await run(add, ["-i", "net0", "net1", "/ns"], { CNI_IFNAME: "eth7" });
    await run(add, ["net1", "/ns2"]);
    expect(
      sb
        .calls()
        .filter((c) => c.tag === "a")
        .map((c) => c.env.CNI_IFNAME),
    ).toEqual(["net0", "eth0"]);
  });

  test("errors come out as a CNI error object on stdout with exit status 1 [DIFF from cnitool's stderr]", async () => {
    expect(await run(add, ["net1", "/ns"], { CNI_ARGS: "A=1;bad" })).toBe(1);
    expect(JSON.parse(out)).toEqual({ code: 4, msg: 'invalid CNI_ARGS pair "bad"' });
    expect(await run(add, ["nope", "/ns"])).toBe(1);
    expect(JSON.parse(out).msg).toBe(`no net configuration with name "nope" in ${confDir}`);
  });

  test("a missing argument is a usage error on stderr with exit status 2 (CT-1)", async () => {
    expect(await run(status, ["net1"])).toBe(2);
    expect(err).toStartWith("network name and namespace are required");
    expect(out).toBe("");
  });

  test("check, del, status and gc run the list as cnitool does (CT-4)", async () => {
    await run(add, ["net1", "/ns"]);
    sb.reset();
    expect(await run(check, ["net1", "/ns"])).toBe(0);
    expect(await run(status, ["net1", "/ns"])).toBe(0);
    expect(await run(del, ["net1", "/ns"])).toBe(0);
    expect(sb.calls().map((c) => `${c.command} ${c.tag}`)).toEqual([
      "CHECK a",
      "CHECK b",
      "STATUS a",
      "STATUS b",
      "DEL b",
      "DEL a",
    ]);
    await run(add, ["net1", "/ns"]);
    sb.reset();
    expect(await run(gc, ["net1", "/unused"])).toBe(0);
    expect(sb.calls().map((c) => `${c.command} ${c.tag}`)).toEqual(["DEL b", "DEL a", "GC a", "GC b"]);
  });

  test("cache ls lists the cached attachments and cache show prints one record", async () => {
    await run(add, ["net1", "/ns"]);
    const cid = cnitoolContainerID("/ns");
    expect(await run(cache, ["ls"])).toBe(0);
    expect(out).toBe(`NETWORK  CONTAINER${" ".repeat(cid.length - 9)}  IFNAME  NETNS\nnet1     ${cid}  eth0    /ns\n`);
    expect(await run(cache, ["show", "net1", cid, "eth0"])).toBe(0);
    const record = JSON.parse(out) as Record<string, unknown>;
    expect(record).toMatchObject({
      kind: "cniCacheV1",
      containerId: cid,
      networkName: "net1",
      config: { name: "net1" },
    });
    expect(await run(cache, ["show", "net1", "other", "eth0"])).toBe(1);
  });
});
