/**
 * The firewall plugin's configuration (reference `plugins/meta/firewall/firewall.go`,
 * `FirewallNetConf`): the backend, the iptables admin chain, the firewalld zone and the
 * ingress policy, with the reference's defaults and messages. prevResult is parsed here
 * too, as the reference's `parseConf` does (PR-1..PR-3).
 */
import * as v from "valibot";
import { parsePrevResult } from "@tscni/skel";
import { CniError, type Result100 } from "@tscni/spec";
import { goObject, goString, parseWith } from "../shared/netconf.ts";

/** `backend`: only these two select a backend; anything else means "choose" (firewall.go getBackend). */
export type FirewallBackendName = "iptables" | "firewalld" | "auto";

/** `ingressPolicy`: "" and "open" accept everything; the others isolate bridges (ingresspolicy.go). */
export type IngressPolicy = "open" | "same-bridge" | "isolated";

/** The firewall config after defaults. */
export interface FirewallConfig {
  cniVersion: string;
  name: string;
  backend: FirewallBackendName;
  /** The admin override chain; default `CNI-ADMIN`. */
  adminChain: string;
  /** The firewalld zone; default `trusted`. */
  zone: string;
  /** The policy as given; "" means open. Unknown values fail at ADD and DEL, as the reference. */
  ingressPolicy: string;
  /** prevResult in the current version; undefined when absent (allowed on DEL). */
  prev: Result100 | undefined;
}

const Schema = v.looseObject(
  {
    cniVersion: goString,
    name: goString,
    backend: goString,
    iptablesAdminChainName: goString,
    firewalldZone: goString,
    ingressPolicy: goString,
    prevResult: v.nullish(goObject({}, "map[string]interface {}")),
  },
  "main.FirewallNetConf",
);

/** Parses the config as the reference's `parseConf` (`failed to load netconf: ...`). */
export function parseFirewallConfig(config: { cniVersion: string; prevResult?: unknown }): FirewallConfig {
  let c: v.InferOutput<typeof Schema>;
  try {
    c = parseWith(Schema, config);
  } catch (err) {
    // The shared Go-unmarshal message names bridge's struct; ours is FirewallNetConf.
    if (err instanceof CniError)
      throw new CniError(
        err.code,
        err.msg.replace("Go struct field NetConf.", "Go struct field FirewallNetConf."),
        err.details,
      );
    throw err;
  }
  const backend = c.backend === "iptables" || c.backend === "firewalld" ? c.backend : "auto";
  return {
    cniVersion: c.cniVersion ?? "0.1.0",
    name: c.name ?? "",
    backend,
    adminChain: c.iptablesAdminChainName || "CNI-ADMIN",
    zone: c.firewalldZone || "trusted",
    ingressPolicy: c.ingressPolicy ?? "",
    prev: parsePrevResult(config),
  };
}

/** The ingress policy, or an error `unknown ingress policy: "<x>"` as ingresspolicy.go. */
export function ingressPolicyOf(c: FirewallConfig): IngressPolicy | Error {
  switch (c.ingressPolicy) {
    case "":
    case "open":
      return "open";
    case "same-bridge":
    case "isolated":
      return c.ingressPolicy;
    default:
      return new Error(`unknown ingress policy: ${JSON.stringify(c.ingressPolicy)}`);
  }
}
