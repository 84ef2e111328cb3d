/**
 * A portmap config for the plan tests: the parsed form with the reference's defaults
 * (snat on, mark bit 13), one IPv4 container address, and whatever a test overrides.
 */
import { parsePrefix } from "@tscni/spec/ipnet";
import type { PortmapConfig, PortMapping } from "../portmap/config.ts";

/** The container addresses the plan tests use. */
export const V4 = parsePrefix("198.18.0.5/24")!;
export const V6 = parsePrefix("2001:db8::5/64")!;

/** One mapping. */
export const mapping = (hostPort: number, containerPort: number, protocol = "tcp", hostIP = ""): PortMapping => ({
  hostPort,
  containerPort,
  protocol,
  hostIP,
});

/** A parsed config for network "net", iptables unless `extra` says otherwise. */
export function portmapConfig(extra: Partial<PortmapConfig> = {}): PortmapConfig {
  return {
    cniVersion: "1.0.0",
    name: "net",
    backend: "iptables",
    snat: true,
    masqAll: false,
    markMasqBit: 13,
    externalSetMarkChain: undefined,
    conditionsV4: [],
    conditionsV6: [],
    portMappings: [],
    prevResult: undefined,
    containerV4: V4,
    containerV6: undefined,
    ...extra,
  };
}

/**
 * A dual-stack container with a mapping of every kind: any host address, a host IP of each
 * family, the unspecified IPv4 one, each protocol, and IPv4 conditions.
 */
export const EVERY_MAPPING: PortmapConfig = portmapConfig({
  conditionsV4: ["!", "-i", "lo", "-d", "198.18.0.9"],
  portMappings: [
    mapping(8080, 80),
    mapping(8443, 443, "tcp", "198.18.0.1"),
    mapping(53, 53, "UDP", "2001:db8::1"),
    mapping(5000, 5000, "sctp", "0.0.0.0"),
  ],
  containerV6: V6,
});
