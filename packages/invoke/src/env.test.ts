import { describe, expect, test } from "bun:test";
import { pluginEnv, stringifyCniArgs } from "./env.ts";

describe("pluginEnv", () => {
  test("passes the caller's whole environment and sets all six CNI variables, unused ones empty (P-8)", () => {
    const env = pluginEnv({ command: "GC", path: "/opt/cni/bin" }, { HOME: "/root", FOO: "bar" });
    expect(env).toEqual({
      HOME: "/root",
      FOO: "bar",
      CNI_COMMAND: "GC",
      CNI_CONTAINERID: "",
      CNI_NETNS: "",
      CNI_ARGS: "",
      CNI_IFNAME: "",
      CNI_PATH: "/opt/cni/bin",
    });
  });

  test("lets the CNI values win over inherited ones (P-8)", () => {
    const env = pluginEnv(
      { command: "ADD", containerID: "c1", netns: "/run/netns/x", ifName: "eth0" },
      { CNI_COMMAND: "DEL", CNI_IFNAME: "eth9", CNI_ARGS: "X=1" },
    );
    expect(env.CNI_COMMAND).toBe("ADD");
    expect(env.CNI_IFNAME).toBe("eth0");
    expect(env.CNI_ARGS).toBe("");
  });

  test("builds CNI_ARGS from pairs unless a ready string is given (CA-4)", () => {
    expect(
      pluginEnv(
        {
          command: "ADD",
          pluginArgs: [
            ["A", "1"],
            ["B", "2"],
          ],
        },
        {},
      ).CNI_ARGS,
    ).toBe("A=1;B=2");
    expect(pluginEnv({ command: "ADD", pluginArgs: [["A", "1"]], pluginArgsStr: "Z=9" }, {}).CNI_ARGS).toBe("Z=9");
  });
});

describe("stringifyCniArgs", () => {
  test("joins pairs as k=v with ';' and escapes nothing (CA-4)", () => {
    expect(
      stringifyCniArgs([
        ["K8S_POD_NAME", "a=b;c"],
        ["IgnoreUnknown", "1"],
      ]),
    ).toBe("K8S_POD_NAME=a=b;c;IgnoreUnknown=1");
    expect(stringifyCniArgs([])).toBe("");
  });
});
