import { describe, expect, test } from "bun:test";
import { CniError } from "@tscni/spec";
import { parseCniCall } from "./call.ts";
import type { WireRequest } from "./wire.ts";

const POD_ARGS = "IgnoreUnknown=1;K8S_POD_NAMESPACE=ns;K8S_POD_NAME=web;K8S_POD_INFRA_CONTAINER_ID=c1";
const ENV = {
  CNI_COMMAND: "ADD",
  CNI_CONTAINERID: "c1",
  CNI_NETNS: "/run/netns/c1",
  CNI_IFNAME: "net1",
  CNI_ARGS: POD_ARGS,
};
const CONFIG = { cniVersion: "1.0.0", name: "shim", type: "cni-shim", runtimeConfig: { portMappings: [] } };

function request(env: Record<string, string>, config: unknown = CONFIG): WireRequest {
  const text = typeof config === "string" ? config : JSON.stringify(config);
  return { env, config: Buffer.from(text).toString("base64") };
}

function rejection(env: Record<string, string>, config?: unknown): CniError {
  try {
    parseCniCall(request(env, config));
  } catch (err) {
    if (err instanceof CniError) return err;
    throw err;
  }
  throw new Error("parseCniCall accepted the request");
}

const without = (key: string): Record<string, string> =>
  Object.fromEntries(Object.entries(ENV).filter(([k]) => k !== key));

describe("parseCniCall", () => {
  test("reads the command, the attachment, the pod and the shim's config", () => {
    const call = parseCniCall(request(ENV));
    expect(call).toMatchObject({
      command: "ADD",
      containerID: "c1",
      netns: "/run/netns/c1",
      ifName: "net1",
      pod: { namespace: "ns", name: "web" },
      cniVersion: "1.0.0",
    });
    expect(call.args[0]).toEqual(["IgnoreUnknown", "1"]);
    expect(call.config.runtimeConfig).toEqual({ portMappings: [] });
  });

  test("defaults CNI_IFNAME to eth0", () => {
    expect(parseCniCall(request(without("CNI_IFNAME"))).ifName).toBe("eth0");
  });

  test("rejects a request without CNI_COMMAND, CNI_CONTAINERID, CNI_NETNS or CNI_ARGS with code 4", () => {
    for (const key of ["CNI_COMMAND", "CNI_CONTAINERID", "CNI_NETNS", "CNI_ARGS"]) {
      const err = rejection(without(key));
      expect(err.code).toBe(4);
      expect(err.msg).toBe(`missing ${key}`);
    }
  });

  test("rejects an unknown command", () => {
    expect(rejection({ ...ENV, CNI_COMMAND: "ATTACH" }).msg).toBe("unknown CNI_COMMAND: ATTACH");
  });

  test("rejects CNI_ARGS that are not K=V pairs separated by ';'", () => {
    const err = rejection({ ...ENV, CNI_ARGS: "K8S_POD_NAMESPACE=ns;K8S_POD_NAME" });
    expect(err.code).toBe(4);
    expect(err.msg).toStartWith('invalid CNI_ARGS pair "K8S_POD_NAME"');
  });

  test("rejects CNI_ARGS without the pod's namespace or name", () => {
    expect(rejection({ ...ENV, CNI_ARGS: "IgnoreUnknown=1;K8S_POD_NAME=web" }).msg).toBe(
      "missing K8S_POD_NAMESPACE in CNI_ARGS",
    );
    expect(rejection({ ...ENV, CNI_ARGS: "K8S_POD_NAMESPACE=ns;K8S_POD_NAME=" }).msg).toBe(
      "missing K8S_POD_NAME in CNI_ARGS",
    );
  });

  test("allows an empty CNI_NETNS on DEL only, since the namespace may be gone (DEL-2)", () => {
    expect(parseCniCall(request({ ...ENV, CNI_COMMAND: "DEL", CNI_NETNS: "" })).netns).toBe("");
    expect(rejection({ ...ENV, CNI_NETNS: "" }).msg).toBe("missing CNI_NETNS");
  });

  test("needs no attachment for GC and STATUS (EX-5) and only the command for VERSION (VER-1)", () => {
    expect(parseCniCall(request({ CNI_COMMAND: "GC", CNI_CONTAINERID: "", CNI_NETNS: "", CNI_ARGS: "" })).command).toBe(
      "GC",
    );
    expect(parseCniCall(request({ CNI_COMMAND: "STATUS" })).command).toBe("STATUS");
    expect(parseCniCall(request({ CNI_COMMAND: "VERSION" }, "not json")).config).toEqual({});
  });

  test("rejects a config that is not a JSON object with code 6", () => {
    expect(rejection(ENV, "{").code).toBe(6);
    expect(rejection(ENV, "[1]").msg).toBe("invalid config: not a JSON object");
  });
});
