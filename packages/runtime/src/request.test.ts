import { describe, expect, test } from "bun:test";
import { parseConfList } from "@tscni/config";
import { CniError } from "@tscni/spec";
import type { Result } from "@tscni/spec";
import {
  buildGCRequest,
  buildRequest,
  buildStatusRequest,
  injectConf,
  pluginDescription,
  wrapPluginError,
} from "./request.ts";

const list = parseConfList(
  JSON.stringify({
    cniVersion: "1.1.0",
    name: "net1",
    plugins: [
      {
        type: "bridge",
        name: "own-name",
        cniVersion: "0.3.1",
        capabilities: { portMappings: true, ips: false },
        "cni.dev/custom": 1,
        z: { b: 1, a: "<&>" },
      },
      { type: "portmap", runtimeConfig: { static: true } },
      { type: "tuning", capabilities: { mac: true }, runtimeConfig: { static: true } },
    ],
  }),
);
const [bridge, portmap, tuning] = list.plugins as [
  (typeof list.plugins)[0],
  (typeof list.plugins)[0],
  (typeof list.plugins)[0],
];
const rt = {
  containerID: "c1",
  netns: "/run/netns/c1",
  ifName: "eth0",
  capabilityArgs: { portMappings: [{ hostPort: 8080 }], ips: ["198.18.0.9/24"], mac: "c2:11:22:33:44:55" },
};
const parse = (bytes: Uint8Array): Record<string, unknown> =>
  JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
const prev: Result = { cniVersion: "1.1.0", interfaces: [{ name: "eth0" }] };

describe("buildRequest", () => {
  test("overwrites the plugin's own name and cniVersion with the list's (RC-1, VN-3)", () => {
    const req = parse(buildRequest("net1", "1.1.0", bridge, undefined, rt).bytes);
    expect([req.name, req.cniVersion]).toEqual(["net1", "1.1.0"]);
  });

  test("injects only declared, enabled capabilities into runtimeConfig (CAP-1, CAP-2, RC-2)", () => {
    const req = parse(buildRequest("net1", "1.1.0", bridge, undefined, rt).bytes);
    expect(req.runtimeConfig).toEqual({ portMappings: [{ hostPort: 8080 }] });
  });

  test("keeps a static runtimeConfig when no capability matched (RC-5)", () => {
    const req = parse(buildRequest("net1", "1.1.0", portmap, undefined, rt).bytes);
    expect(req.runtimeConfig).toEqual({ static: true });
  });

  test("replaces a static runtimeConfig when a capability matched (RC-5)", () => {
    const req = parse(buildRequest("net1", "1.1.0", tuning, undefined, rt).bytes);
    expect(req.runtimeConfig).toEqual({ mac: "c2:11:22:33:44:55" });
  });

  test("passes the capabilities key and cni.dev keys through unchanged [DIFF] (RC-4)", () => {
    const req = parse(buildRequest("net1", "1.1.0", bridge, undefined, rt).bytes);
    expect(req.capabilities).toEqual({ portMappings: true, ips: false });
    expect(req["cni.dev/custom"]).toBe(1);
  });

  test("adds prevResult only when there is one (RC-2, ADD-7)", () => {
    expect(parse(buildRequest("net1", "1.1.0", bridge, undefined, rt).bytes)).not.toHaveProperty("prevResult");
    expect(parse(buildRequest("net1", "1.1.0", bridge, prev, rt).bytes).prevResult).toEqual(prev);
  });

  test("re-encodes compact JSON with sorted keys and Go's HTML escaping (RC-6)", () => {
    const text = new TextDecoder().decode(buildRequest("net1", "1.1.0", portmap, undefined, rt).bytes);
    expect(text).toBe('{"cniVersion":"1.1.0","name":"net1","runtimeConfig":{"static":true},"type":"portmap"}');
    expect(new TextDecoder().decode(bridge.bytes)).toContain("<&>");
    expect(new TextDecoder().decode(buildRequest("n", "1.1.0", bridge, undefined, rt).bytes)).toContain(
      '"z":{"a":"\\u003c\\u0026\\u003e","b":1}',
    );
  });
});

describe("injectConf", () => {
  test("rejects an empty key and a nil value (RC-6)", () => {
    expect(() => injectConf(portmap, { "": 1 })).toThrow("keys cannot be empty");
    expect(() => injectConf(portmap, { x: null })).toThrow("key 'x' value must not be nil");
  });
});

describe("GC and STATUS requests", () => {
  test("GC gets name, cniVersion and the valid attachments under both keys, nothing else (RC-3, RC-7, GC-9)", () => {
    const req = parse(
      buildGCRequest("net1", "1.1.0", tuning, { validAttachments: [{ containerID: "c1", ifname: "eth0" }] }).bytes,
    );
    expect(req["cni.dev/valid-attachments"]).toEqual([{ containerID: "c1", ifname: "eth0" }]);
    expect(req["cni.dev/attachments"]).toEqual([{ containerID: "c1", ifname: "eth0" }]);
    expect(req.runtimeConfig).toEqual({ static: true }); // the file's own, untouched
    expect(req).not.toHaveProperty("prevResult");
  });

  test("GC without arguments sends no attachment key at all (CT-4)", () => {
    const req = parse(buildGCRequest("net1", "1.1.0", bridge, undefined).bytes);
    expect(req).not.toHaveProperty("cni.dev/valid-attachments");
    expect(req).not.toHaveProperty("cni.dev/attachments");
  });

  test("STATUS gets only name and cniVersion on top of the plugin object (RC-7)", () => {
    const req = parse(buildStatusRequest("net1", "1.1.0", bridge).bytes);
    expect(req).not.toHaveProperty("runtimeConfig");
    expect([req.name, req.cniVersion, req.type]).toEqual(["net1", "1.1.0", "bridge"]);
  });
});

describe("plugin errors", () => {
  test("describe the plugin by type and its own name when it has one (E-8)", () => {
    expect(pluginDescription(bridge.network)).toBe('type="bridge" name="own-name"');
    expect(pluginDescription(portmap.network)).toBe('type="portmap"');
  });

  test("are wrapped with the operation and keep their code and details (E-8)", () => {
    const err = wrapPluginError(portmap.network, "add", new CniError(11, "busy", "later"));
    expect([err.code, err.msg, err.details]).toEqual([11, 'plugin type="portmap" failed (add): busy', "later"]);
    expect(err.toString()).toBe('plugin type="portmap" failed (add): busy; later');
  });
});
