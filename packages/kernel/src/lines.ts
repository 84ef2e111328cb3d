/**
 * One {@link KernelOp} as the one line a batch-reading tool runs: an `ip -batch` line,
 * a `bridge -batch` line, or a sysctl assignment. Pure; shared by the script printer and
 * the Linux driver, so what `cni plan` prints is what the driver feeds to `ip`.
 */
import { KernelError } from "./kernel.ts";
import { HOST, type KernelOp, type Netns, type RouteOp } from "./ops.ts";
import { ruleFamily, ruleLine } from "./rule.ts";
import { vrfLine } from "./vrf.ts";
import { dummyLine, ipvlanLine, macvlanLine, vlanLine } from "./lines-sublinks.ts";

import { renderTcOp } from "./lines-tc.ts";
import { renderTapAdd } from "./render-tap.ts";

/** Which program reads a line. */
export type Tool = "ip" | "bridge" | "sysctl" | "ip6" | "tc";

/** An operation rendered for its tool: `ip`/`bridge` lines omit the program name. */
export interface OpLine {
  tool: Tool;
  /** `link add ...` for `ip`, `vlan add ...` for `bridge`, `key=value` for sysctl. */
  line: string;
}

// iproute2's batch tokenizer (makeargs) splits on whitespace, honours quotes and drops
// everything after a token that starts with `#`: such a token would change the command.
const UNSAFE = /[\s"'\\]|^#|^$/;

function tok(value: string | number): string {
  const s = String(value);
  if (UNSAFE.test(s)) throw new KernelError("invalid", `value "${s}" cannot appear on an ip batch line`);
  return s;
}

/** True for a dotted sysctl key (`net.ipv4.ip_forward`), or a `/` separated one when a name has dots. */
export function isSysctlKey(key: string): boolean {
  // No segment may start with a dot, so a key can never climb out of /proc/sys.
  return /^[A-Za-z0-9_-]+([./][A-Za-z0-9_@+=-][A-Za-z0-9_.@+=-]*)*$/.test(key);
}

/** The /proc/sys file of a dotted (or `/` separated) sysctl key. */
export function sysctlPath(key: string): string {
  return `/proc/sys/${key.includes("/") ? key : key.replaceAll(".", "/")}`;
}

const onOff = (b: boolean): string => (b ? "on" : "off");

/** The `netns` argument for `to`, as seen from inside `from`; undefined when they are the same. */
function nsArg(from: Netns, to: Netns, hostRef: string): string | undefined {
  if (to === from) return undefined;
  return tok(to === HOST ? hostRef : to);
}

function linkAttrs(a: { mtu?: number | undefined; mac?: string | undefined }): string[] {
  const out: string[] = [];
  if (a.mtu !== undefined) out.push("mtu", tok(a.mtu));
  if (a.mac !== undefined) out.push("address", tok(a.mac));
  return out;
}

function routeLine(op: RouteOp): string {
  const w = [
    op.op === "route.del"
      ? "route del"
      : op.prepend === true
        ? "route prepend"
        : op.replace === true
          ? "route replace"
          : "route add",
    tok(op.dst),
  ];
  if (op.gw !== undefined) w.push("via", tok(op.gw));
  if (op.dev !== undefined) w.push("dev", tok(op.dev));
  if (op.src !== undefined) w.push("src", tok(op.src));
  if (op.scope !== undefined) w.push("scope", tok(op.scope));
  if (op.table !== undefined) w.push("table", tok(op.table));
  if (op.metric !== undefined) w.push("metric", tok(op.metric));
  if (op.mtu !== undefined) w.push("mtu", tok(op.mtu));
  if (op.advmss !== undefined) w.push("advmss", tok(op.advmss));
  if (op.onlink === true) w.push("onlink");
  if (op.op === "route.add" && op.protocol !== undefined) w.push("proto", tok(op.protocol));
  return w.join(" ");
}

/**
 * Renders one operation. `hostRef` is how a namespace other than the host names the host
 * namespace (a path `ip` can open). Throws KernelError `invalid` for a value that would
 * break the batch line.
 */
export function renderOp(op: KernelOp, hostRef: string): OpLine {
  switch (op.op) {
    case "veth.add": {
      const w = [
        "link add",
        tok(op.name),
        ...linkAttrs(op),
        "type veth peer name",
        tok(op.peer.name),
        ...linkAttrs(op.peer),
      ];
      const to = nsArg(op.ns, op.peer.ns, hostRef);
      if (to !== undefined) w.push("netns", to);
      return { tool: "ip", line: w.join(" ") };
    }
    case "bridge.add": {
      const w = ["link add", tok(op.name), ...linkAttrs(op), "type bridge"];
      if (op.vlanFiltering !== undefined) w.push("vlan_filtering", op.vlanFiltering ? "1" : "0");
      if (op.defaultPvid !== undefined) w.push("vlan_default_pvid", tok(op.defaultPvid));
      return { tool: "ip", line: w.join(" ") };
    }
    case "vlan.add":
      if (op.mtu !== undefined || op.into !== undefined) return { tool: "ip", line: vlanLine(op, hostRef) };
      return { tool: "ip", line: `link add ${tok(op.name)} link ${tok(op.parent)} type vlan id ${tok(op.id)}` };
    case "macvlan.add":
      return { tool: "ip", line: macvlanLine(op, hostRef) };
    case "ipvlan.add":
      return { tool: "ip", line: ipvlanLine(op, hostRef) };
    case "dummy.add":
      return { tool: "ip", line: dummyLine(op) };
    case "tap.add":
      return renderTapAdd(op, tok);
    case "link.set": {
      const w = ["link set dev", tok(op.name)];
      if (op.up !== undefined) w.push(op.up ? "up" : "down");
      if (op.mtu !== undefined) w.push("mtu", tok(op.mtu));
      if (op.mac !== undefined) w.push("address", tok(op.mac));
      if (op.master !== undefined) w.push(...(op.master === null ? ["nomaster"] : ["master", tok(op.master)]));
      if (op.promisc !== undefined) w.push("promisc", onOff(op.promisc));
      if (op.newName !== undefined) w.push("name", tok(op.newName));
      if (op.allmulti !== undefined) w.push("allmulticast", onOff(op.allmulti));
      if (op.txQLen !== undefined) w.push("txqueuelen", tok(op.txQLen));
      if (op.alias !== undefined) w.push("alias", op.alias === "" ? '""' : tok(op.alias));
      return { tool: "ip", line: w.join(" ") };
    }
    case "bridge-port.set": {
      const w = ["link set dev", tok(op.name), "type bridge_slave"];
      if (op.hairpin !== undefined) w.push("hairpin", onOff(op.hairpin));
      if (op.isolated !== undefined) w.push("isolated", onOff(op.isolated));
      return { tool: "ip", line: w.join(" ") };
    }
    case "bridge-vlan.add":
    case "bridge-vlan.del": {
      const w = [op.op === "bridge-vlan.add" ? "vlan add" : "vlan del", "dev", tok(op.dev), "vid", tok(op.vid)];
      if (op.pvid === true) w.push("pvid");
      if (op.untagged === true) w.push("untagged");
      if (op.self === true) w.push("self");
      return { tool: "bridge", line: w.join(" ") };
    }
    case "link.move": {
      const to = nsArg(op.ns, op.to, hostRef);
      if (to === undefined) throw new KernelError("invalid", `link "${op.name}" cannot move to its own namespace`);
      return { tool: "ip", line: `link set dev ${tok(op.name)} netns ${to}` };
    }
    case "link.del":
      return { tool: "ip", line: `link del dev ${tok(op.name)}` };
    case "addr.add":
    case "addr.del": {
      const w = [op.op === "addr.add" ? "addr add" : "addr del", tok(op.cidr), "dev", tok(op.dev)];
      if (op.scope !== undefined) w.push("scope", tok(op.scope));
      if (op.op === "addr.add" && op.nodad === true) w.push("nodad");
      if (op.op === "addr.add" && op.noprefixroute === true) w.push("noprefixroute");
      if (op.op === "addr.add" && op.broadcast !== undefined) w.push("broadcast", tok(op.broadcast));
      return { tool: "ip", line: w.join(" ") };
    }
    case "route.add":
    case "route.del":
      return { tool: "ip", line: routeLine(op) };
    case "rule.add":
    case "rule.del":
      // A batch line cannot carry `-6`, and `ip rule` reads an IPv6 prefix as IPv4 without it.
      return { tool: ruleFamily(op) === 6 ? "ip6" : "ip", line: ruleLine(op, tok) };
    case "vrf.add":
      return { tool: "ip", line: vrfLine(op, tok) };
    case "sysctl.set":
      if (!isSysctlKey(op.key)) throw new KernelError("invalid", `invalid sysctl key "${op.key}"`);
      if (/[\n\0]/.test(op.value)) throw new KernelError("invalid", `sysctl "${op.key}" value must be one line`);
      return { tool: "sysctl", line: `${tok(op.key)}=${op.value}` };
    case "ifb.add":
    case "qdisc.add":
    case "qdisc.del":
    case "filter.add":
      return renderTcOp(op);
  }
}
