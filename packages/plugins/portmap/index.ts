/**
 * The portmap plugin (SPEC.md §8.5), chained only: ADD forwards the mapped host ports to
 * the container in one firewall transaction and removes it again when anything after it
 * fails; CHECK compares the rules with the plan; DEL removes this container's rules in
 * both families and succeeds when they are already gone (DEL-3). No GC or STATUS.
 */
import { defaultBackend } from "@tscni/firewall";
import { HOST } from "@tscni/kernel";
import { pluginMain, type CmdArgs, type PluginDefinition, type PluginHandlers, type PluginIO } from "@tscni/skel";
import { CniError, VERSIONS, type Result100 } from "@tscni/spec";
import { formatAddr } from "@tscni/spec/ipnet";
import { invalidConfig } from "../shared/netconf.ts";
import { ifKey } from "../shared/sysctl.ts";
import { parsePortmapConfig, wrapParseError, type PortmapConfig } from "./config.ts";
import { routableHostIf } from "./host-if.ts";
import { containerNets, planPortmapAdd } from "./plan.ts";
import { removePortmapRules } from "./teardown.ts";
import { checkPortmap } from "./check.ts";
import type { PortmapPorts } from "./ports.ts";

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The config with ADD's and DEL's wrapping; the default backend is fw-core's choice as the reference makes it (§8.5). */
async function parseWrapped(ports: PortmapPorts, a: CmdArgs): Promise<PortmapConfig> {
  try {
    return await parsePortmapConfig(a.config, a.ifName, () => defaultBackend(ports.firewall));
  } catch (err) {
    throw wrapParseError(err);
  }
}

/** Deletes UDP conntrack entries of the mapped host ports so stale flows do not blackhole new ones; only warns. */
async function flushUdpConntrack(ports: PortmapPorts, conf: PortmapConfig): Promise<void> {
  for (const net of containerNets(conf)) {
    try {
      for (const m of conf.portMappings) {
        if (m.protocol.toLowerCase() === "udp") await ports.conntrack.deleteByDstPort(net.ip.family, "udp", m.hostPort);
      }
    } catch (err) {
      ports.warn(`failed to delete stale UDP conntrack entries for ${formatAddr(net.ip)}: ${message(err)}`);
    }
  }
}

/** route_localnet=1 on the host interface routing to the container, so 127/8 may cross (§8.5 ADD 4). */
async function enableLocalnet(ports: PortmapPorts, conf: PortmapConfig): Promise<void> {
  if (!conf.snat || conf.containerV4 === undefined) return;
  const dev = routableHostIf(await ports.kernel.routes(HOST, 4), conf.containerV4.ip);
  if (dev === undefined) return;
  try {
    await ports.kernel.apply([{ op: "sysctl.set", ns: HOST, key: ifKey("ipv4", dev, "route_localnet"), value: "1" }]);
  } catch (err) {
    throw new Error(`unable to enable route_localnet: ${message(err)}`);
  }
}

async function add(ports: PortmapPorts, a: CmdArgs): Promise<Result100> {
  const conf = await parseWrapped(ports, a);
  // v1.1.1 (Debian) differs: code 999 for a plain error; SPEC §4.2 gives code 7 (invalid network config)
  if (conf.prevResult === undefined) throw invalidConfig("must be called as chained plugin");
  // No mappings: the previous result passes through and no table is touched (issue 9 item 5).
  if (conf.portMappings.length === 0) return conf.prevResult;
  const tx = planPortmapAdd(conf, a.containerID);
  try {
    if (tx.length > 0) await ports.firewall.apply(tx);
    await enableLocalnet(ports, conf);
  } catch (err) {
    // A failed ADD leaves nothing of this container behind (ADD-6); the shared chains stay, as the reference's do.
    await removePortmapRules(ports, conf, a.containerID).catch((e: unknown) => ports.warn(`rollback: ${message(e)}`));
    if (err instanceof CniError) throw err;
    const prefix =
      conf.backend === "nftables" ? "unable to set up nftables rules for port mappings" : "unable to setup DNAT";
    throw new Error(
      message(err).startsWith("unable to enable route_localnet") ? message(err) : `${prefix}: ${message(err)}`,
    );
  }
  await flushUdpConntrack(ports, conf);
  return conf.prevResult;
}

async function check(ports: PortmapPorts, a: CmdArgs): Promise<void> {
  // CHECK does not wrap parse errors (cmdCheck returns them as they are).
  const conf = await parsePortmapConfig(a.config, a.ifName, () => defaultBackend(ports.firewall));
  if (conf.prevResult === undefined) throw new Error("Required prevResult missing");
  if (conf.portMappings.length === 0) return;
  await checkPortmap(ports, conf, a.containerID);
}

async function del(ports: PortmapPorts, a: CmdArgs): Promise<void> {
  const conf = await parseWrapped(ports, a);
  // Without mappings there is nothing to find (§8.5 DEL; runtimes replay them, CAP-3).
  if (conf.portMappings.length === 0) return;
  await removePortmapRules(ports, conf, a.containerID);
}

/** The portmap handlers over the given ports; no GC or STATUS (§8.5). */
export function portmapHandlers(ports: PortmapPorts): PluginHandlers {
  return { add: (a) => add(ports, a), check: (a) => check(ports, a), del: (a) => del(ports, a) };
}

/** The portmap plugin: every spec version (`version.All`). */
export function portmapDefinition(ports: PortmapPorts): PluginDefinition {
  return { name: "portmap", about: "CNI portmap plugin (tscni)", versions: VERSIONS, handlers: portmapHandlers(ports) };
}

/** The binary's entry for `portmap`: the real kernel, firewall and conntrack. */
export async function main(io: PluginIO): Promise<number> {
  const { realPortmapPorts } = await import("./real-ports.ts");
  return pluginMain(portmapDefinition(await realPortmapPorts(io.env, io.stderr)), io);
}
