/**
 * The firewall plugin (reference `plugins/meta/firewall`, issue 9 item 4), chained only:
 * lets a container's traffic through the host's FORWARD chain. Backend `iptables`
 * (CNI-FORWARD, CNI-ADMIN, per-address accepts) or `firewalld` (the addresses become
 * sources of a zone over D-Bus), chosen as the reference: firewalld when it runs and the
 * config names no backend. `ingressPolicy` same-bridge / isolated adds the bridge
 * isolation chains whatever the backend. ADD and DEL are one transaction each; a failed
 * ADD removes what it added; DEL succeeds when things are already gone (DEL-3).
 */
import type { Firewall, FirewallTx } from "@tscni/firewall";
import { pluginMain, type CmdArgs, type PluginDefinition, type PluginHandlers, type PluginIO } from "@tscni/skel";
import { versionsStartingFrom, type Result100 } from "@tscni/spec";
import { ingressPolicyOf, parseFirewallConfig, type FirewallConfig, type IngressPolicy } from "./config.ts";
import { firewalldAdd, firewalldCheck, firewalldDel, firewalldRunning, type DbusPort } from "./firewalld.ts";
import { checkForward, familiesOf, planAdd, planForwardDel } from "./plan.ts";
import { hostIps } from "./rules.ts";

/** What the firewall plugin needs from the outside world. */
export interface FirewallPluginPorts {
  firewall: Firewall;
  /** The system bus, for the firewalld backend and for finding out whether firewalld runs. */
  dbus: DbusPort;
  /** Diagnostics that do not fail the command (stderr in the binary). */
  warn: (msg: string) => void;
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** `getBackend`: the named one, else firewalld when it runs, else iptables. */
async function useFirewalld(ports: Pick<FirewallPluginPorts, "dbus">, conf: FirewallConfig): Promise<boolean> {
  if (conf.backend !== "auto") return conf.backend === "firewalld";
  return firewalldRunning(ports.dbus);
}

/** The bridge an isolating policy applies to: prevResult's first interface (ingresspolicy.go). */
function isolationBridge(policy: IngressPolicy, prev: Result100): string {
  if (policy === "open") return "";
  const intf = prev.interfaces?.[0];
  if (intf === undefined) {
    throw new Error(
      `interface needs to be set for ingress policy "${policy}", make sure to chain "firewall" plugin with "bridge"`,
    );
  }
  if (intf.name === "") throw new Error("got empty bridge name");
  return intf.name;
}

function requirePrev(conf: FirewallConfig): Result100 {
  if (conf.prev === undefined) throw new Error("missing prevResult from earlier plugin");
  return conf.prev;
}

async function add(ports: FirewallPluginPorts, a: CmdArgs): Promise<Result100> {
  const conf = parseFirewallConfig(a.config);
  const prev = requirePrev(conf);
  // [DIFF] The reference finds an unknown policy after its backend added the rules, and
  // leaves them; we refuse before touching anything.
  const policy = ingressPolicyOf(conf);
  if (policy instanceof Error) throw policy;
  const bridge = isolationBridge(policy, prev);
  const ips = hostIps(prev);
  const fwd = await useFirewalld(ports, conf);
  if (fwd)
    await firewalldAdd(
      ports.dbus,
      conf.zone,
      ips.map((ip) => ip.cidr),
    );
  const tx = planAdd({ iptables: !fwd, adminChain: conf.adminChain, ips, policy, bridge });
  if (tx.length > 0) {
    try {
      await ports.firewall.apply(tx);
    } catch (err) {
      // A failed ADD leaves nothing of its own: the address rules (or zone sources). The
      // shared chains and jumps stay, as the reference leaves them.
      if (fwd)
        await firewalldDel(
          ports.dbus,
          conf.zone,
          ips.map((ip) => ip.cidr),
        );
      else
        await ports.firewall
          .apply(planForwardDel(ips))
          .catch((e: unknown) => ports.warn(`firewall rollback: ${message(e)}`));
      throw err;
    }
  }
  return prev;
}

async function check(ports: FirewallPluginPorts, a: CmdArgs): Promise<void> {
  const conf = parseFirewallConfig(a.config);
  const ips = hostIps(requirePrev(conf));
  if (ips.length === 0) return;
  if (await useFirewalld(ports, conf))
    return firewalldCheck(
      ports.dbus,
      conf.zone,
      ips.map((ip) => ip.cidr),
    );
  for (const family of familiesOf(ips)) {
    const filter = await ports.firewall.iptables(family, "filter");
    const problem = checkForward(
      conf.adminChain,
      ips.filter((ip) => ip.family === family),
      filter,
    );
    if (problem !== undefined) throw new Error(problem);
  }
}

async function del(ports: FirewallPluginPorts, a: CmdArgs): Promise<void> {
  const conf = parseFirewallConfig(a.config);
  // Without prevResult there is nothing known to remove (the reference's empty result).
  const ips = hostIps(conf.prev);
  if (ips.length > 0) {
    if (await useFirewalld(ports, conf))
      await firewalldDel(
        ports.dbus,
        conf.zone,
        ips.map((ip) => ip.cidr),
      );
    else {
      // The reference ignores DEL's runtime errors; a rule already gone is no error (DEL-3).
      await ports.firewall.apply(planForwardDel(ips)).catch((e: unknown) => ports.warn(`firewall DEL: ${message(e)}`));
    }
  }
  // The isolation chains stay (other containers may use the bridge); an unknown policy
  // fails DEL after the removal, as the reference's teardownIngressPolicy.
  const policy = ingressPolicyOf(conf);
  if (policy instanceof Error) throw policy;
}

/**
 * What an ADD would do, for `cni plan`: the iptables transaction for `prev` (the
 * interface plugin's planned result), or only the isolation part plus a note when
 * firewalld would take the addresses (asked on the system bus unless `dbus` is given).
 * Applies nothing.
 */
export async function planChained(
  a: CmdArgs,
  prev: Result100,
  dbus?: DbusPort,
): Promise<{ firewall: FirewallTx; notes: string[] }> {
  const conf = parseFirewallConfig({ ...a.config, prevResult: undefined });
  const ports = { dbus: dbus ?? (await import("./real-dbus.ts")).busctlPort(process.env) };
  const policy = ingressPolicyOf(conf);
  if (policy instanceof Error) throw policy;
  const ips = hostIps(prev);
  const fwd = await useFirewalld(ports, conf);
  const tx = planAdd({
    iptables: !fwd,
    adminChain: conf.adminChain,
    ips,
    policy,
    bridge: isolationBridge(policy, prev),
  });
  const notes = fwd
    ? [`firewall: firewalld zone "${conf.zone}" gets source(s) ${ips.map((ip) => ip.cidr).join(", ")} over D-Bus`]
    : [];
  return { firewall: tx, notes };
}

/** The firewall handlers over the given ports; no GC or STATUS, as the reference. */
export function firewallHandlers(ports: FirewallPluginPorts): PluginHandlers {
  return { add: (a) => add(ports, a), check: (a) => check(ports, a), del: (a) => del(ports, a) };
}

/** The firewall plugin: spec versions 0.4.0 and later, as the reference. */
export function firewallDefinition(ports: FirewallPluginPorts): PluginDefinition {
  return {
    name: "firewall",
    about: "CNI firewall plugin (tscni)",
    versions: versionsStartingFrom("0.4.0"),
    handlers: firewallHandlers(ports),
  };
}

/** The binary's entry for `firewall`: the real netfilter backends (loaded on first use) and busctl. */
export async function main(io: PluginIO): Promise<number> {
  const [{ lazyLinuxFirewall }, { busctlPort }, { createTracer, tracedFirewall }] = await Promise.all([
    import("../shared/lazy-firewall.ts"),
    import("./real-dbus.ts"),
    import("../shared/trace.ts"),
  ]);
  // TSCNI_TRACE=1: every firewall call timed on stderr, as for bridge and ptp.
  const trace = createTracer(io.env, io.stderr);
  const firewall = trace === undefined ? lazyLinuxFirewall() : tracedFirewall(lazyLinuxFirewall(), trace);
  return pluginMain(firewallDefinition({ firewall, dbus: busctlPort(io.env), warn: (m) => io.stderr(`${m}\n`) }), io);
}
