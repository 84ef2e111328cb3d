/**
 * What kubelet's CNI network plugin passes for a pod (BRIEF seed design 1, CA-5): the
 * runtime arguments, the interface name and the `portMappings` capability.
 */
import type { RuntimeConf } from "../runtime-conf.ts";

/** The interface every pod gets on its default network (kubelet's `DefaultInterfaceName`). */
export const POD_INTERFACE = "eth0";

/** One port a pod publishes on the node, as the container runtime knows it. */
export interface PodPortMapping {
  readonly hostPort: number;
  readonly containerPort: number;
  /** `TCP`, `UDP` or `SCTP` in any letter case; sent lower-cased. */
  readonly protocol: string;
  /** The host address to bind; empty or absent means every address. */
  readonly hostIP?: string;
}

/** The pod an attachment belongs to. */
export interface PodRef {
  readonly namespace: string;
  readonly name: string;
  /** The sandbox (infra container) ID: the attachment's container ID. */
  readonly podInfraContainerID: string;
  readonly podUID?: string;
}

/** One entry of the `portMappings` capability (CONVENTIONS.md, §6.2). */
export interface PortMappingArg {
  hostPort: number;
  containerPort: number;
  protocol: string;
  hostIP?: string;
}

/**
 * The `portMappings` capability value: only mappings with a host port above 0 (the rest
 * are not published on the node), protocols lower-cased, as kubelet sends them.
 *
 * @example portMappingsCapability([{ hostPort: 8080, containerPort: 80, protocol: "TCP" }])
 * // [{ hostPort: 8080, containerPort: 80, protocol: "tcp" }]
 */
export function portMappingsCapability(mappings: readonly PodPortMapping[]): PortMappingArg[] {
  return mappings
    .filter((m) => m.hostPort > 0)
    .map((m) => ({
      hostPort: m.hostPort,
      containerPort: m.containerPort,
      protocol: m.protocol.toLowerCase(),
      ...(m.hostIP !== undefined && m.hostIP !== "" ? { hostIP: m.hostIP } : {}),
    }));
}

/**
 * The `CNI_ARGS` pairs of a pod (CA-5): `IgnoreUnknown=1` first, so the reference plugins
 * accept the Kubernetes keys, then namespace, name, sandbox ID and, when known, the UID.
 *
 * @example podArgs({ namespace: "default", name: "web", podInfraContainerID: "abc" })
 */
export function podArgs(pod: PodRef): [string, string][] {
  const pairs: [string, string][] = [
    ["IgnoreUnknown", "1"],
    ["K8S_POD_NAMESPACE", pod.namespace],
    ["K8S_POD_NAME", pod.name],
    ["K8S_POD_INFRA_CONTAINER_ID", pod.podInfraContainerID],
  ];
  if (pod.podUID !== undefined && pod.podUID !== "") pairs.push(["K8S_POD_UID", pod.podUID]);
  return pairs;
}

/**
 * The runtime configuration of one pod attachment: sandbox ID, netns, `eth0`, the pod's
 * CNI_ARGS and, when given, the `portMappings` capability (injected only into plugins
 * that declare it, CAP-1).
 */
export function podRuntimeConf(pod: PodRef, netns: string, portMappings?: readonly PodPortMapping[]): RuntimeConf {
  return {
    containerID: pod.podInfraContainerID,
    netns,
    ifName: POD_INTERFACE,
    args: podArgs(pod),
    ...(portMappings !== undefined ? { capabilityArgs: { portMappings: portMappingsCapability(portMappings) } } : {}),
  };
}
