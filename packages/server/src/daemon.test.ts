import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PodNetworkManager } from "@tscni/runtime";
import { makeSandbox } from "@tscni/runtime/testing";
import type { Sandbox } from "@tscni/runtime/testing";
import { startDaemon } from "./daemon.ts";
import type { CniDaemon } from "./daemon.ts";
import { main as shim } from "./shim.ts";
import { encodeRequest } from "./wire.ts";

let sb: Sandbox;
let confDir: string;
let socketPath: string;
let daemon: CniDaemon | undefined;

const POD_ARGS = "IgnoreUnknown=1;K8S_POD_NAMESPACE=ns;K8S_POD_NAME=web;K8S_POD_INFRA_CONTAINER_ID=c1";
const ENV: Record<string, string> = {
  CNI_COMMAND: "ADD",
  CNI_CONTAINERID: "c1",
  CNI_NETNS: "/run/netns/c1",
  CNI_IFNAME: "eth0",
  CNI_ARGS: POD_ARGS,
  CNI_PATH: "/opt/cni/bin",
};

function writeNetwork(bridgeAnswer?: Record<string, unknown>): void {
  writeFileSync(
    join(confDir, "10-pods.conflist"),
    JSON.stringify({
      cniVersion: "1.0.0",
      name: "pods",
      plugins: [
        { type: "bridge", fake: { log: sb.log, ...(bridgeAnswer !== undefined ? { answer: bridgeAnswer } : {}) } },
        { type: "portmap", capabilities: { portMappings: true }, fake: { log: sb.log } },
      ],
    }),
  );
}

async function start(): Promise<CniDaemon> {
  const manager = new PodNetworkManager({
    confDir,
    binDirs: [sb.binDir],
    vendorPrefix: sb.dir,
    cacheDir: sb.cacheDir,
    baseEnv: { PATH: process.env.PATH },
  });
  daemon = await startDaemon({ socketPath, manager, syncIntervalMs: 0 });
  return daemon;
}

beforeEach(() => {
  sb = makeSandbox();
  sb.install("bridge", "portmap");
  confDir = join(sb.dir, "net.d");
  mkdirSync(confDir);
  socketPath = join(sb.dir, "run", "tscni.sock");
});
afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  sb.cleanup();
});

/** Runs the shim in process, as the binary would under the name `cni-shim`. */
async function runShim(
  env: Record<string, string>,
  config: Record<string, unknown> = {},
): Promise<{ code: number; out: Record<string, unknown> | undefined }> {
  let stdout = "";
  const stdin = new TextEncoder().encode(
    JSON.stringify({ cniVersion: "1.0.0", name: "shim", type: "cni-shim", socketPath, ...config }),
  );
  const code = await shim({
    argv: [],
    env,
    readStdin: async () => stdin,
    stdout: (t) => void (stdout += t),
    stderr: () => {},
  });
  return { code, out: stdout === "" ? undefined : (JSON.parse(stdout) as Record<string, unknown>) };
}

/** Posts a raw body to the daemon. */
async function post(
  body: string,
  init: { method?: string; path?: string } = {},
): Promise<{ status: number; text: string }> {
  const res = await fetch(`http://localhost${init.path ?? "/cni"}`, {
    method: init.method ?? "POST",
    unix: socketPath,
    ...(init.method === "GET" ? {} : { body }),
  });
  return { status: res.status, text: await res.text() };
}

const envWithout = (key: string): Record<string, string> =>
  Object.fromEntries(Object.entries(ENV).filter(([k]) => k !== key));

describe("the daemon", () => {
  test("listens on a unix socket that only its owner may use (mode 0600)", async () => {
    await start();
    const st = statSync(socketPath);
    expect(st.isSocket()).toBe(true);
    expect(st.mode & 0o777).toBe(0o600);
  });

  test("adds the default network for the shim's container and the shim prints the result (ADD round trip)", async () => {
    writeNetwork();
    await start();
    const { code, out } = await runShim(ENV);
    expect(code).toBe(0);
    expect(out).toMatchObject({ cniVersion: "1.0.0", interfaces: [{ name: "bridge" }, { name: "portmap" }] });
    const calls = sb.calls().filter((c) => c.command === "ADD");
    expect(calls.map((c) => c.tag)).toEqual(["bridge", "portmap"]);
    expect(calls[0]?.env).toMatchObject({
      CNI_CONTAINERID: "c1",
      CNI_NETNS: "/run/netns/c1",
      CNI_IFNAME: "eth0",
      CNI_ARGS: POD_ARGS,
      CNI_PATH: `${sb.dir}/opt/bridge/bin:${sb.binDir}`,
    });
    expect(existsSync(join(sb.cacheDir, "results", "pods-c1-eth0"))).toBe(true);
  });

  test("returns the result in the version of the shim's config", async () => {
    writeNetwork();
    await start();
    const { out } = await runShim(ENV, { cniVersion: "0.4.0" });
    expect(out?.cniVersion).toBe("0.4.0");
  });

  test("passes the shim's runtimeConfig to the plugins that declare the capability (CAP-1)", async () => {
    writeNetwork();
    await start();
    const portMappings = [{ hostPort: 8080, containerPort: 80, protocol: "tcp" }];
    await runShim(ENV, { runtimeConfig: { portMappings } });
    const [bridge, portmap] = sb.calls().filter((c) => c.command === "ADD");
    expect((portmap?.stdin as Record<string, unknown>).runtimeConfig).toEqual({ portMappings });
    expect((bridge?.stdin as Record<string, unknown>).runtimeConfig).toBeUndefined();
  });

  test("deletes the default network on DEL, with no output", async () => {
    writeNetwork();
    await start();
    await runShim(ENV);
    const { code, out } = await runShim({ ...ENV, CNI_COMMAND: "DEL" });
    expect(code).toBe(0);
    expect(out).toBeUndefined();
    expect(
      sb
        .calls()
        .filter((c) => c.command === "DEL")
        .map((c) => c.tag),
    ).toEqual(["portmap", "bridge"]);
    expect(existsSync(join(sb.cacheDir, "results", "pods-c1-eth0"))).toBe(false);
  });

  test("checks the default network for the shim's container on CHECK, with the cached result", async () => {
    writeNetwork();
    await start();
    const added = await runShim(ENV);
    const { code, out } = await runShim({ ...ENV, CNI_COMMAND: "CHECK" });
    expect(code).toBe(0);
    expect(out).toBeUndefined();
    const checks = sb.calls().filter((c) => c.command === "CHECK");
    expect(checks.map((c) => c.tag)).toEqual(["bridge", "portmap"]);
    expect((checks[0]?.stdin as Record<string, unknown>).prevResult).toMatchObject({
      interfaces: (added.out as Record<string, unknown>).interfaces,
    });
  });

  test("deletes the attachments GC does not list as valid (§7.7)", async () => {
    writeNetwork();
    await start();
    await runShim(ENV);
    await runShim({ ...ENV, CNI_CONTAINERID: "c2" });
    const gc = { CNI_COMMAND: "GC", CNI_CONTAINERID: "", CNI_NETNS: "", CNI_IFNAME: "", CNI_ARGS: "" };
    const { code } = await runShim(gc, {
      cniVersion: "1.1.0",
      "cni.dev/valid-attachments": [{ containerID: "c1", ifname: "eth0" }],
    });
    expect(code).toBe(0);
    const dels = sb.calls().filter((c) => c.command === "DEL");
    expect(dels.map((c) => `${c.tag} ${c.env.CNI_CONTAINERID}`)).toEqual(["portmap c2", "bridge c2"]);
    expect(existsSync(join(sb.cacheDir, "results", "pods-c1-eth0"))).toBe(true);
    expect(existsSync(join(sb.cacheDir, "results", "pods-c2-eth0"))).toBe(false);
  });

  test("answers VERSION itself with every spec version", async () => {
    await start();
    const { code, out } = await runShim({ CNI_COMMAND: "VERSION" });
    expect(code).toBe(0);
    expect(out).toEqual({
      cniVersion: "1.0.0",
      supportedVersions: ["0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"],
    });
  });

  test("re-reads the config dir on STATUS: not initialized (code 50) until a network appears", async () => {
    await start();
    const before = await runShim({ CNI_COMMAND: "STATUS" }, { cniVersion: "1.1.0" });
    expect(before.code).toBe(1);
    expect(before.out).toMatchObject({
      code: 50,
      msg: `network plugin not initialized: no networks found in ${confDir}`,
    });
    writeNetwork();
    expect((await runShim({ CNI_COMMAND: "STATUS" }, { cniVersion: "1.1.0" })).code).toBe(0);
  });

  test("replaces a stale socket file left by a dead daemon but refuses to replace any other file", async () => {
    const first = await start();
    await first.stop();
    daemon = undefined;
    writeFileSync(socketPath, "not a socket");
    await expect(start()).rejects.toThrow("it is not a socket");
  });
});

describe("the daemon rejects", () => {
  for (const key of ["CNI_COMMAND", "CNI_CONTAINERID", "CNI_NETNS", "CNI_ARGS"]) {
    test(`a request without ${key} with HTTP 400 and a message`, async () => {
      writeNetwork();
      await start();
      const res = await post(encodeRequest(envWithout(key), new TextEncoder().encode("{}")));
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text)).toEqual({ error: { code: 4, msg: `missing ${key}` } });
      expect(sb.calls()).toEqual([]);
    });
  }

  test("CNI_ARGS that are not K=V pairs separated by ';' with HTTP 400", async () => {
    await start();
    const res = await post(
      encodeRequest({ ...ENV, CNI_ARGS: "K8S_POD_NAMESPACE=ns;;K8S_POD_NAME=web" }, new Uint8Array()),
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error.msg).toStartWith('invalid CNI_ARGS pair ""');
  });

  test("a request without the pod's namespace or name with HTTP 400", async () => {
    await start();
    const noNs = await post(
      encodeRequest({ ...ENV, CNI_ARGS: "IgnoreUnknown=1;K8S_POD_NAME=web" }, new TextEncoder().encode("{}")),
    );
    expect(noNs.status).toBe(400);
    expect(JSON.parse(noNs.text).error.msg).toBe("missing K8S_POD_NAMESPACE in CNI_ARGS");
    const noName = await post(
      encodeRequest({ ...ENV, CNI_ARGS: "K8S_POD_NAMESPACE=ns" }, new TextEncoder().encode("{}")),
    );
    expect(JSON.parse(noName.text).error.msg).toBe("missing K8S_POD_NAME in CNI_ARGS");
  });

  test("a body that is not a wire request with HTTP 400 and code 6", async () => {
    await start();
    const res = await post('{"env":{"CNI_COMMAND":"ADD"}}');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error).toMatchObject({
      code: 6,
      msg: 'invalid request: config: Invalid key: Expected "config" but received undefined',
    });
  });

  test("other methods and paths (405, 404)", async () => {
    await start();
    expect((await post("", { method: "GET" })).status).toBe(405);
    expect((await post("{}", { path: "/other" })).status).toBe(404);
  });
});

describe("the shim", () => {
  test("turns an HTTP 400 into a CNI error on stdout with exit 1", async () => {
    await start();
    const { code, out } = await runShim(envWithout("CNI_CONTAINERID"));
    expect(code).toBe(1);
    expect(out).toEqual({ code: 4, msg: "missing CNI_CONTAINERID" });
  });

  test("keeps the code of a failing plugin behind the daemon", async () => {
    writeNetwork({ ADD: { stdout: '{"code":7,"msg":"no bridge for you"}', exit: 1 } });
    await start();
    const { code, out } = await runShim(ENV);
    expect(code).toBe(1);
    expect(out?.code).toBe(7);
    expect(String(out?.msg)).toContain("no bridge for you");
  });

  test("reports code 11, try again later, when the daemon is down", async () => {
    const { code, out } = await runShim(ENV);
    expect(code).toBe(1);
    expect(out?.code).toBe(11);
    expect(out?.msg).toBe(`cannot reach the CNI daemon on ${JSON.stringify(socketPath)}; try again later`);
    expect(out?.details).toBe("no such socket; is `cni daemon` running?");
  });

  test("reports code 11 once the daemon has stopped", async () => {
    writeNetwork();
    const d = await start();
    expect((await runShim(ENV)).code).toBe(0);
    await d.stop();
    daemon = undefined;
    expect((await runShim(ENV)).out?.code).toBe(11);
  });
});
