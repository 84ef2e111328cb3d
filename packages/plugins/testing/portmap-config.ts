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
