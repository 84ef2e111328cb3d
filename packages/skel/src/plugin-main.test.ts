import { describe, expect, test } from "bun:test";
import { CniError, ErrorCode } from "@tscni/spec";
import type { Result } from "@tscni/spec";
import { pluginMain } from "./plugin-main.ts";
import type { CmdArgs, PluginDefinition, PluginHandlers, PluginIO, SkelPorts } from "./types.ts";

const ALL = ["0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  calls: CmdArgs[];
  /** stdout parsed as the error object (fails when stdout is not JSON). */
  error(): { code: number; msg: string; details?: string; cniVersion?: string };
}

const BASE_ENV = {
  CNI_CONTAINERID: "ctr1",
  CNI_NETNS: "/var/run/netns/x",
  CNI_IFNAME: "eth0",
  CNI_PATH: "/opt/cni/bin",
};

async function run(opts: {
  env: Record<string, string | undefined>;
  stdin?: string | Error;
  handlers?: PluginHandlers;
  versions?: readonly string[];
  about?: string;
  ports?: SkelPorts;
}): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const calls: CmdArgs[] = [];
  const record =
    <T>(value: T) =>
    async (a: CmdArgs): Promise<T> => {
      calls.push(a);
      return value;
    };
  const result: Result = {
    cniVersion: "1.1.0",
    interfaces: [{ name: "eth0" }],
    ips: [{ address: "198.18.0.2/24", interface: 0 }],
  };
  const def: PluginDefinition = {
    name: "test",
    about: opts.about ?? "CNI test plugin v0.1.0",
    versions: opts.versions ?? ALL,
    handlers: opts.handlers ?? {
      add: record(result),
      del: record(undefined),
      check: record(undefined),
      gc: record(undefined),
      status: record(undefined),
    },
  };
  const io: PluginIO = {
    env: opts.env,
    readStdin: async () => {
      if (opts.stdin instanceof Error) throw opts.stdin;
      return new TextEncoder().encode(opts.stdin ?? '{"cniVersion":"1.1.0","name":"net","type":"test"}');
    },
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
  };
  const code = await pluginMain(def, io, opts.ports ?? { sameNetns: () => false });
  return { code, stdout, stderr, calls, error: () => JSON.parse(stdout) };
}

describe("step 1: environment variables are read in order and validated as scanned (ENV-2, ENV-3)", () => {
  test("ADD with nothing set reports every required variable, in order, code 4", async () => {
    const r = await run({ env: { CNI_COMMAND: "ADD" } });
    expect(r.code).toBe(1);
    expect(r.error()).toEqual({
      code: 4,
      msg: "required env variables [CNI_CONTAINERID,CNI_NETNS,CNI_IFNAME,CNI_PATH] missing",
    });
    expect(r.calls).toHaveLength(0);
  });

  test("DEL does not require CNI_NETNS", async () => {
    const r = await run({ env: { CNI_COMMAND: "DEL", CNI_CONTAINERID: "c", CNI_IFNAME: "eth0" } });
    expect(r.error().msg).toBe("required env variables [CNI_PATH] missing");
  });

  test("GC and STATUS require only CNI_PATH, and do not validate the container ID", async () => {
    for (const cmd of ["GC", "STATUS"]) {
      expect((await run({ env: { CNI_COMMAND: cmd } })).error().msg).toBe("required env variables [CNI_PATH] missing");
      const ok = await run({ env: { CNI_COMMAND: cmd, CNI_PATH: "/opt/cni/bin", CNI_CONTAINERID: "bad id" } });
      expect(ok.code).toBe(0);
    }
  });

  test("an empty CNI_CONTAINERID is missing (code 4), not unknown container (code 3)", async () => {
    const r = await run({ env: { ...BASE_ENV, CNI_COMMAND: "ADD", CNI_CONTAINERID: "" } });
    expect(r.error()).toEqual({ code: 4, msg: "required env variables [CNI_CONTAINERID] missing" });
  });

  test("an invalid container ID returns at once, before later missing variables", async () => {
    // v1.1.1 (Debian) differs: it checks the ID after the scan and the config, so a missing variable wins; SPEC ENV-3 follows upstream main
    const r = await run({ env: { CNI_COMMAND: "ADD", CNI_CONTAINERID: "bad/id" } });
    expect(r.error()).toEqual({ code: 4, msg: "invalid characters in containerID", details: "bad/id" });
  });

  test("an invalid container ID or interface name wins over a bad config, which is not read (§1.11 step 1)", async () => {
    // v1.1.1 (Debian) differs: it answers the config's error (code 6 or 7) first; SPEC §1.11 step 1 follows upstream main
    const json = await run({ env: { ...BASE_ENV, CNI_COMMAND: "DEL", CNI_CONTAINERID: "bad/id" }, stdin: "{" });
    expect(json.error()).toEqual({ code: 4, msg: "invalid characters in containerID", details: "bad/id" });
    const name = await run({ env: { ...BASE_ENV, CNI_COMMAND: "ADD", CNI_IFNAME: "eth:0" }, stdin: '{"name":"a b"}' });
    expect(name.error()).toEqual({ code: 4, msg: "interface name contains / or : or whitespace characters" });
  });

  test("an unknown command requires and checks no container ID or interface name (§1.11 step 5)", async () => {
    // v1.1.1 (Debian) differs: it checks them for every command but VERSION (code 3 `missing containerID` when empty); SPEC ENV-3 follows upstream main
    expect((await run({ env: { CNI_COMMAND: "FOO" } })).error()).toMatchObject({
      code: 4,
      msg: "unknown CNI_COMMAND: FOO",
    });
    expect((await run({ env: { ...BASE_ENV, CNI_COMMAND: "FOO", CNI_IFNAME: "" } })).error()).toMatchObject({
      code: 4,
      msg: "unknown CNI_COMMAND: FOO",
    });
    expect((await run({ env: { CNI_COMMAND: "FOO" }, stdin: "{" })).error()).toEqual({
      code: 6,
      msg: "error unmarshall network config: unexpected end of JSON input",
    });
  });

  test("an invalid interface name is code 4", async () => {
    const r = await run({ env: { ...BASE_ENV, CNI_COMMAND: "CHECK", CNI_IFNAME: "eth0:1" } });
    expect(r.error()).toEqual({ code: 4, msg: "interface name contains / or : or whitespace characters" });
    const long = await run({ env: { ...BASE_ENV, CNI_COMMAND: "DEL", CNI_IFNAME: "a-very-long-ifname" } });
    expect(long.error().msg).toBe("interface name is too long");
  });
});

describe("step 2: an empty CNI_COMMAND", () => {
  test("prints the about string and the supported versions on stderr and exits 0", async () => {
    const r = await run({ env: {}, versions: ["0.4.0", "1.0.0"] });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("CNI test plugin v0.1.0\nCNI protocol versions supported: 0.4.0, 1.0.0\n");
  });

  test("is code 4 when the plugin has no about string", async () => {
    const r = await run({ env: {}, about: "" });
    expect(r.code).toBe(1);
    expect(r.error()).toEqual({ code: 4, msg: "required env variables [CNI_COMMAND] missing" });
  });
});

describe("step 3: stdin", () => {
  test("VERSION does not read stdin and prints the library version and the supported list (VER-3)", async () => {
    const r = await run({
      env: { CNI_COMMAND: "VERSION" },
      stdin: new Error("must not be read"),
      versions: ["0.3.1", "1.0.0"],
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"cniVersion":"1.1.0","supportedVersions":["0.3.1","1.0.0"]}\n');
  });

  test("a stdin read error is code 5", async () => {
    const r = await run({ env: { ...BASE_ENV, CNI_COMMAND: "ADD" }, stdin: new Error("broken pipe") });
    expect(r.error()).toEqual({ code: 5, msg: "error reading from stdin: broken pipe" });
  });
});

describe("step 4: the config is validated for every command but VERSION", () => {
  const add = { ...BASE_ENV, CNI_COMMAND: "ADD" };
  test("invalid JSON is code 6", async () => {
    for (const stdin of ["{", "", "not json"]) {
      const e = (await run({ env: add, stdin })).error();
      expect(e.code).toBe(6);
      expect(e.msg).toStartWith("error unmarshall network config: ");
    }
  });

  test("a JSON value that is not an object, or a non-string name, is code 6", async () => {
    for (const stdin of ["[]", "5", '"x"', '{"name":5}']) expect((await run({ env: add, stdin })).error().code).toBe(6);
  });

  test("a missing, empty or null name is code 7 missing network name", async () => {
    for (const stdin of ["{}", '{"name":""}', "null", '{"name":null}']) {
      expect((await run({ env: add, stdin })).error()).toEqual({ code: 7, msg: "missing network name" });
    }
  });

  test("a name failing the regex is code 7 with the name as details", async () => {
    const r = await run({ env: add, stdin: '{"name":"my net","cniVersion":"1.1.0"}' });
    expect(r.error()).toEqual({ code: 7, msg: "invalid characters found in network name", details: "my net" });
  });

  test("an unknown command still has its config validated first", async () => {
    const r = await run({ env: { ...BASE_ENV, CNI_COMMAND: "FOO" }, stdin: "{" });
    expect(r.error().code).toBe(6);
  });
});

describe("step 5: dispatch and version gates", () => {
  test("ADD and DEL require an exact version match, code 1 with the supported list, and never repeat the unsupported version", async () => {
    for (const cmd of ["ADD", "DEL"]) {
      const r = await run({
        env: { ...BASE_ENV, CNI_COMMAND: cmd },
        stdin: '{"name":"n","cniVersion":"1.0"}',
        versions: ["0.4.0", "1.0.0"],
      });
      expect(r.error()).toEqual({
        code: 1,
        msg: "incompatible CNI versions",
        details: 'config is "1.0", plugin supports ["0.4.0" "1.0.0"]',
      });
      expect(r.calls).toHaveLength(0);
    }
  });

  test("a missing cniVersion means 0.1.0", async () => {
    const r = await run({ env: { ...BASE_ENV, CNI_COMMAND: "DEL" }, stdin: '{"name":"n"}', versions: ["1.0.0"] });
    expect(r.error().details).toBe('config is "0.1.0", plugin supports ["1.0.0"]');
    const ok = await run({ env: { ...BASE_ENV, CNI_COMMAND: "DEL" }, stdin: '{"name":"n"}' });
    expect(ok.code).toBe(0);
    expect(ok.calls[0]?.config.cniVersion).toBe("0.1.0");
  });

  test("a non-string cniVersion is code 6", async () => {
    const r = await run({ env: { ...BASE_ENV, CNI_COMMAND: "ADD" }, stdin: '{"name":"n","cniVersion":1}' });
    expect(r.error().code).toBe(6);
  });

  test("CHECK below 0.4.0 is code 1 config version does not allow CHECK (CHK-9)", async () => {
    const r = await run({ env: { ...BASE_ENV, CNI_COMMAND: "CHECK" }, stdin: '{"name":"n","cniVersion":"0.3.1"}' });
    expect(r.error()).toEqual({ cniVersion: "0.3.1", code: 1, msg: "config version does not allow CHECK" });
  });

  test("CHECK with no supported version at or above the config's is code 1 (CHK-10)", async () => {
    const r = await run({
      env: { ...BASE_ENV, CNI_COMMAND: "CHECK" },
      stdin: '{"name":"n","cniVersion":"1.0.0"}',
      versions: ["0.4.0"],
    });
    expect(r.error().msg).toBe("plugin version does not allow CHECK");
  });

  test("CHECK then requires the exact match", async () => {
    const r = await run({
      env: { ...BASE_ENV, CNI_COMMAND: "CHECK" },
      stdin: '{"name":"n","cniVersion":"0.4.1"}',
      versions: ["0.4.0", "1.0.0"],
    });
    expect(r.error().msg).toBe("incompatible CNI versions");
  });

  test("CHECK with an unparsable config version is code 6", async () => {
    const r = await run({ env: { ...BASE_ENV, CNI_COMMAND: "CHECK" }, stdin: '{"name":"n","cniVersion":"1.0.0-rc1"}' });
    expect(r.error().code).toBe(6);
  });

  test("GC and STATUS below 1.1.0 are code 1 (GC-10, ST-6)", async () => {
    for (const cmd of ["GC", "STATUS"]) {
      const r = await run({
        env: { CNI_COMMAND: cmd, CNI_PATH: "/opt/cni/bin" },
        stdin: '{"name":"n","cniVersion":"1.0.0"}',
      });
      expect(r.error()).toEqual({ cniVersion: "1.0.0", code: 1, msg: `config version does not allow ${cmd}` });
      const old = await run({ env: { CNI_COMMAND: cmd, CNI_PATH: "/opt/cni/bin" }, versions: ["1.0.0"] });
      expect(old.error().msg).toBe(`plugin version does not allow ${cmd}`);
    }
  });

  test("an unknown command is code 4", async () => {
    const r = await run({ env: { ...BASE_ENV, CNI_COMMAND: "GET" } });
    expect(r.error()).toEqual({ cniVersion: "1.1.0", code: 4, msg: "unknown CNI_COMMAND: GET" });
  });

  test("handlers get the CNI_* values and the parsed config", async () => {
    const r = await run({
      env: { ...BASE_ENV, CNI_COMMAND: "DEL", CNI_ARGS: "IgnoreUnknown=1" },
      stdin: '{"cniVersion":"0.4.0","name":"n","type":"t","x":[1]}',
    });
    expect(r.code).toBe(0);
    const a = r.calls[0];
    expect(a?.command).toBe("DEL");
    expect([a?.containerID, a?.netns, a?.ifName, a?.args, a?.path]).toEqual([
      "ctr1",
      "/var/run/netns/x",
      "eth0",
      "IgnoreUnknown=1",
      "/opt/cni/bin",
    ]);
    expect(a?.config).toEqual({ cniVersion: "0.4.0", name: "n", type: "t", x: [1] });
    expect(new TextDecoder().decode(a?.stdinData)).toBe('{"cniVersion":"0.4.0","name":"n","type":"t","x":[1]}');
  });

  test("ADD prints the handler's result converted to the config version, with nothing else on stdout", async () => {
    const r = await run({ env: { ...BASE_ENV, CNI_COMMAND: "ADD" }, stdin: '{"cniVersion":"0.4.0","name":"n"}' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      cniVersion: "0.4.0",
      interfaces: [{ name: "eth0" }],
      ips: [{ version: "4", address: "198.18.0.2/24", interface: 0 }],
      dns: {},
    });
  });

  test("a missing handler makes its command succeed with no output (ST-7, GC-10)", async () => {
    for (const cmd of ["ADD", "DEL", "CHECK"]) {
      const r = await run({ env: { ...BASE_ENV, CNI_COMMAND: cmd }, handlers: {} });
      expect([r.code, r.stdout]).toEqual([0, ""]);
    }
    for (const cmd of ["GC", "STATUS"]) {
      const r = await run({ env: { CNI_COMMAND: cmd, CNI_PATH: "/p" }, handlers: {} });
      expect([r.code, r.stdout]).toEqual([0, ""]);
    }
  });
});

describe("step 6: handler errors", () => {
  test("a CniError passes through unchanged", async () => {
    const handlers = {
      status: async () => {
        throw new CniError(ErrorCode.PluginNotAvailable, "not ready", "ipam down");
      },
    };
    const r = await run({ env: { CNI_COMMAND: "STATUS", CNI_PATH: "/p" }, handlers });
    expect(r.code).toBe(1);
    expect(r.error()).toEqual({ cniVersion: "1.1.0", code: 50, msg: "not ready", details: "ipam down" });
  });

  test("any other error is code 999 with its message and no stack trace", async () => {
    const handlers = {
      add: async (): Promise<Result> => {
        throw new TypeError("boom");
      },
    };
    const r = await run({ env: { ...BASE_ENV, CNI_COMMAND: "ADD" }, handlers });
    expect(r.error()).toEqual({ cniVersion: "1.1.0", code: 999, msg: "boom" });
    expect(r.stdout).not.toContain("at ");
  });

  test("the error JSON is the only thing on stdout, indented like the Go skel", async () => {
    const r = await run({ env: { CNI_COMMAND: "ADD" } });
    expect(r.stdout).toBe(
      '{\n    "code": 4,\n    "msg": "required env variables [CNI_CONTAINERID,CNI_NETNS,CNI_IFNAME,CNI_PATH] missing"\n}',
    );
  });
});

describe("step 7: CNI_NETNS must not be the plugin's own namespace (checked before the handler)", () => {
  const same = { sameNetns: () => true };
  test("ADD and CHECK fail with code 8 without calling the handler", async () => {
    for (const cmd of ["ADD", "CHECK"]) {
      const r = await run({ env: { ...BASE_ENV, CNI_COMMAND: cmd }, ports: same });
      expect(r.error()).toEqual({
        cniVersion: "1.1.0",
        code: 8,
        msg: "plugin's netns and netns from CNI_NETNS should not be the same",
      });
      expect(r.calls).toHaveLength(0);
      expect(r.stdout).not.toContain("interfaces");
    }
  });

  test("CNI_NETNS_OVERRIDE=1 or true in any case skips the check (P-7)", async () => {
    for (const o of ["1", "true", "TRUE", "True"]) {
      const r = await run({ env: { ...BASE_ENV, CNI_COMMAND: "DEL", CNI_NETNS_OVERRIDE: o }, ports: same });
      expect(r.code).toBe(0);
    }
    const r = await run({ env: { ...BASE_ENV, CNI_COMMAND: "ADD", CNI_NETNS_OVERRIDE: "yes" }, ports: same });
    expect(r.error().code).toBe(8);
  });

  test("DEL is tolerant: it succeeds, and its handler sees an empty CNI_NETNS so it touches nothing in the own namespace", async () => {
    const r = await run({ env: { ...BASE_ENV, CNI_COMMAND: "DEL" }, ports: same });
    expect(r.code).toBe(0);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]?.netns).toBe("");
  });

  test("the real check knows its own namespace and treats an unopenable path as another", async () => {
    const own = await run({ env: { ...BASE_ENV, CNI_COMMAND: "ADD", CNI_NETNS: "/proc/self/ns/net" }, ports: {} });
    expect(own.error().code).toBe(8);
    const gone = await run({
      env: { ...BASE_ENV, CNI_COMMAND: "DEL", CNI_NETNS: "/var/run/netns/tscni-does-not-exist" },
      ports: {},
    });
    expect(gone.code).toBe(0);
  });
});
