/**
 * The scaffold the sublink plugins (macvlan, ipvlan, vlan, dummy) share around their own
 * ADD, CHECK and DEL: STATUS and GC forwarded to IPAM, the definition with every spec
 * version, and the binary's entry over the real ports (loaded on use: lean plugin path).
 */
import { pluginMain, type CmdArgs, type PluginDefinition, type PluginHandlers, type PluginIO } from "@tscni/skel";
import { VERSIONS, type Result100 } from "@tscni/spec";
import type { PluginPorts } from "./ports.ts";

/** One sublink plugin's own verbs and how it reads its IPAM type. */
export interface SublinkVerbs {
  add(ports: PluginPorts, a: CmdArgs): Promise<Result100>;
  check(ports: PluginPorts, a: CmdArgs): Promise<void>;
  del(ports: PluginPorts, a: CmdArgs): Promise<void>;
  ipamOf(a: CmdArgs): string;
  /**
   * STATUS goes to IPAM even untyped (the reference vlan's and dummy's, ST-4), or only
   * with an IPAM type (macvlan's and ipvlan's). GC only ever with a type (GC-4).
   */
  statusUntyped: boolean;
}

/** The handlers of a sublink plugin over the given ports. */
export function sublinkHandlers(ports: PluginPorts, v: SublinkVerbs): PluginHandlers {
  return {
    add: (a) => v.add(ports, a),
    check: (a) => v.check(ports, a),
    del: (a) => v.del(ports, a),
    status: async (a) => (v.statusUntyped || v.ipamOf(a) !== "" ? ports.ipam(v.ipamOf(a), a).status() : undefined),
    gc: async (a) => (v.ipamOf(a) !== "" ? ports.ipam(v.ipamOf(a), a).gc() : undefined),
  };
}

/** A sublink plugin's definition: every spec version (0.1.0..1.1.0). */
export function sublinkDefinition(name: string, handlers: PluginHandlers): PluginDefinition {
  return { name, about: `CNI ${name} plugin (tscni)`, versions: VERSIONS, handlers };
}

/** The binary's entry for a sublink plugin: the real kernel and IPAM. */
export async function sublinkMain(io: PluginIO, define: (ports: PluginPorts) => PluginDefinition): Promise<number> {
  const { realPorts } = await import("./real-ports.ts");
  const { serialisedDefinition } = await import("./serialise.ts");
  return pluginMain(serialisedDefinition(define(realPorts(io.env, io.stderr))), io);
}
