import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CniError } from "@tscni/spec";
import { managerFixture } from "../testing/manager-fixture.ts";
import type { ManagerFixture } from "../testing/manager-fixture.ts";
import { NetworkNotInitializedError } from "./errors.ts";

let fx: ManagerFixture;
beforeEach(() => {
  fx = managerFixture();
  fx.sb.install("bridge", "portmap", "loopback");
});
afterEach(() => fx.sb.cleanup());

/** A default network of bridge + portmap (portmap declares portMappings), logging to the sandbox. */
function writeDefault(answers: { bridge?: Record<string, unknown> } = {}): void {
  const log = fx.sb.log;
  fx.conf("10-pods.conflist", {
    cniVersion: "1.0.0",
    name: "pods",
    plugins: [
      { type: "bridge", fake: { log, ...(answers.bridge !== undefined ? { answer: answers.bridge } : {}) } },
      { type: "portmap", capabilities: { portMappings: true }, fake: { log } },
    ],
  });
}

const NETNS = "/run/netns/pod-abc";
const stdinOf = (i: number): Record<string, unknown> => fx.calls()[i]?.stdin as Record<string, unknown>;
const envOf = (i: number): Record<string, string> => fx.calls()[i]?.env ?? {};

describe("setUpPod", () => {
  test("attaches the loopback network first, then the default network, and returns the default network's result", async () => {
    writeDefault();
    const result = await fx.manager().setUpPod("default", "web", "abc", NETNS);
    expect(fx.trace()).toEqual(["ADD loopback", "ADD bridge", "ADD portmap"]);
    expect(stdinOf(0)).toEqual({ cniVersion: "0.2.0", name: "cni-loopback", type: "loopback" });
    expect(stdinOf(1)).toMatchObject({ cniVersion: "1.0.0", name: "pods", type: "bridge" });
    expect(result.cniVersion).toBe("1.0.0");
  });

  test("passes the Kubernetes runtime args, the sandbox ID, the netns and eth0 to every plugin (CA-5)", async () => {
    writeDefault();
    await fx.manager().setUpPod("kube-system", "dns-1", "abc", NETNS);
    for (const i of [0, 1, 2]) {
      expect(envOf(i)).toMatchObject({
        CNI_ARGS: "IgnoreUnknown=1;K8S_POD_NAMESPACE=kube-system;K8S_POD_NAME=dns-1;K8S_POD_INFRA_CONTAINER_ID=abc",
        CNI_CONTAINERID: "abc",
        CNI_NETNS: NETNS,
        CNI_IFNAME: "eth0",
      });
    }
  });

  test("adds K8S_POD_UID to the runtime args when the pod's UID is known", async () => {
    writeDefault();
    await fx.manager().setUpPod("default", "web", "abc", NETNS, { podUID: "0f1e-22" });
    expect(envOf(1).CNI_ARGS).toBe(
      "IgnoreUnknown=1;K8S_POD_NAMESPACE=default;K8S_POD_NAME=web;K8S_POD_INFRA_CONTAINER_ID=abc;K8S_POD_UID=0f1e-22",
    );
  });

  test("sends port mappings with a host port as the portMappings capability, protocol lower-cased, only to plugins that declare it", async () => {
    writeDefault();
    await fx.manager().setUpPod("default", "web", "abc", NETNS, {
      portMappings: [
        { hostPort: 8080, containerPort: 80, protocol: "TCP" },
        { hostPort: 0, containerPort: 9090, protocol: "TCP" },
        { hostPort: 5353, containerPort: 53, protocol: "UDP", hostIP: "198.18.0.1" },
      ],
    });
    expect(stdinOf(2).runtimeConfig).toEqual({
      portMappings: [
        { hostPort: 8080, containerPort: 80, protocol: "tcp" },
        { hostPort: 5353, containerPort: 53, protocol: "udp", hostIP: "198.18.0.1" },
      ],
    });
    expect(stdinOf(1).runtimeConfig).toBeUndefined();
  });

  test("fails with not initialized when the config dir holds no valid network, without running a plugin", async () => {
    const err = await fx
      .manager()
      .setUpPod("default", "web", "abc", NETNS)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkNotInitializedError);
    expect(String(err)).toContain(`network plugin not initialized: no networks found in ${fx.confDir}`);
    expect(fx.sb.calls()).toEqual([]);
  });

  test("fails when the default network's ADD fails, keeping the plugin's error code", async () => {
    writeDefault({ bridge: { ADD: { stdout: '{"code":7,"msg":"bad bridge"}', exit: 1 } } });
    const err = (await fx
      .manager()
      .setUpPod("default", "web", "abc", NETNS)
      .catch((e: unknown) => e)) as CniError;
    expect(err).toBeInstanceOf(CniError);
    expect(err.code).toBe(7);
    expect(err.msg).toContain("bad bridge");
  });
});

describe("tearDownPod", () => {
  test("detaches the default network in reverse order with the pod's runtime args, and drops the cache records", async () => {
    writeDefault();
    const pods = fx.manager();
    await pods.setUpPod("default", "web", "abc", NETNS);
    fx.sb.reset();
    await pods.tearDownPod("default", "web", "abc", NETNS);
    expect(fx.trace()).toEqual(["DEL loopback", "DEL portmap", "DEL bridge"]);
    expect(envOf(1).CNI_ARGS).toBe(
      "IgnoreUnknown=1;K8S_POD_NAMESPACE=default;K8S_POD_NAME=web;K8S_POD_INFRA_CONTAINER_ID=abc",
    );
    expect(existsSync(join(fx.sb.cacheDir, "results", "pods-abc-eth0"))).toBe(false);
    expect(existsSync(join(fx.sb.cacheDir, "results", "cni-loopback-abc-eth0"))).toBe(false);
  });

  test("tolerates a missing netns: DEL still runs with an empty CNI_NETNS (DEL-2)", async () => {
    writeDefault();
    await fx.manager().tearDownPod("default", "web", "abc", "");
    expect(fx.trace()).toEqual(["DEL loopback", "DEL portmap", "DEL bridge"]);
    expect(envOf(2).CNI_NETNS).toBe("");
  });

  test("tolerates a network already deleted (a plugin failing with no such file or directory)", async () => {
    writeDefault({
      bridge: {
        DEL: {
          stdout: '{"code":999,"msg":"failed to open netns \\"/run/netns/gone\\": no such file or directory"}',
          exit: 1,
        },
      },
    });
    await fx.manager().tearDownPod("default", "web", "abc", "/run/netns/gone");
    expect(fx.trace()).toEqual(["DEL loopback", "DEL portmap", "DEL bridge"]);
  });

  test("fails on any other DEL error so that the runtime retries", async () => {
    writeDefault({ bridge: { DEL: { stdout: '{"code":11,"msg":"busy"}', exit: 1 } } });
    const err = (await fx
      .manager()
      .tearDownPod("default", "web", "abc", NETNS)
      .catch((e: unknown) => e)) as CniError;
    expect(err.code).toBe(11);
  });

  test("does not fail when the loopback DEL fails, and warns instead", async () => {
    writeDefault();
    fx.sb.script("loopback", 'echo \'{"code":999,"msg":"lo is stuck"}\'; exit 1');
    await fx.manager().tearDownPod("default", "web", "abc", NETNS);
    expect(fx.trace()).toEqual(["DEL portmap", "DEL bridge"]);
    expect(fx.warnings.join("\n")).toContain("lo is stuck");
  });

  test("replays the port mappings cached by the ADD when the caller gives none (CAP-3)", async () => {
    writeDefault();
    const pods = fx.manager();
    await pods.setUpPod("default", "web", "abc", NETNS, {
      portMappings: [{ hostPort: 8080, containerPort: 80, protocol: "TCP" }],
    });
    fx.sb.reset();
    await pods.tearDownPod("default", "web", "abc", NETNS);
    expect(stdinOf(1).runtimeConfig).toEqual({
      portMappings: [{ hostPort: 8080, containerPort: 80, protocol: "tcp" }],
    });
  });
});
