import { describe, expect, test } from "bun:test";
import { podArgs, podRuntimeConf, portMappingsCapability } from "./pod-conf.ts";

describe("portMappingsCapability", () => {
  test("keeps only mappings with a host port above 0", () => {
    const out = portMappingsCapability([
      { hostPort: 0, containerPort: 80, protocol: "TCP" },
      { hostPort: -1, containerPort: 81, protocol: "TCP" },
      { hostPort: 8443, containerPort: 443, protocol: "TCP" },
    ]);
    expect(out).toEqual([{ hostPort: 8443, containerPort: 443, protocol: "tcp" }]);
  });

  test("lower-cases the protocol and keeps a host IP only when one is set", () => {
    expect(
      portMappingsCapability([
        { hostPort: 53, containerPort: 53, protocol: "UDP", hostIP: "" },
        { hostPort: 9000, containerPort: 9000, protocol: "Sctp", hostIP: "2001:db8::1" },
      ]),
    ).toEqual([
      { hostPort: 53, containerPort: 53, protocol: "udp" },
      { hostPort: 9000, containerPort: 9000, protocol: "sctp", hostIP: "2001:db8::1" },
    ]);
  });
});

describe("podArgs", () => {
  test("starts with IgnoreUnknown=1 and lists namespace, name and sandbox ID in kubelet's order (CA-5)", () => {
    expect(podArgs({ namespace: "ns", name: "p", podInfraContainerID: "c1" })).toEqual([
      ["IgnoreUnknown", "1"],
      ["K8S_POD_NAMESPACE", "ns"],
      ["K8S_POD_NAME", "p"],
      ["K8S_POD_INFRA_CONTAINER_ID", "c1"],
    ]);
  });

  test("appends K8S_POD_UID only when the UID is known", () => {
    expect(podArgs({ namespace: "ns", name: "p", podInfraContainerID: "c1", podUID: "u-1" }).at(-1)).toEqual([
      "K8S_POD_UID",
      "u-1",
    ]);
    expect(podArgs({ namespace: "ns", name: "p", podInfraContainerID: "c1", podUID: "" })).toHaveLength(4);
  });
});

describe("podRuntimeConf", () => {
  test("uses the sandbox ID as container ID and eth0 as interface", () => {
    const rt = podRuntimeConf({ namespace: "ns", name: "p", podInfraContainerID: "c1" }, "/run/netns/x");
    expect(rt).toMatchObject({ containerID: "c1", netns: "/run/netns/x", ifName: "eth0" });
    expect(rt.capabilityArgs).toBeUndefined();
  });

  test("sends an empty portMappings list when the pod publishes nothing", () => {
    const rt = podRuntimeConf({ namespace: "ns", name: "p", podInfraContainerID: "c1" }, "/run/netns/x", []);
    expect(rt.capabilityArgs).toEqual({ portMappings: [] });
  });
});
