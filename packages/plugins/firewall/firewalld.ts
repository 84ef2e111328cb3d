/**
 * The firewalld backend (reference `plugins/meta/firewall/firewalld.go`): each container
 * address becomes a source of a zone (`trusted` by default) through firewalld's D-Bus API
 * (`org.fedoraproject.FirewallD1.zone` addSource / removeSource / querySource).
 *
 * D-Bus is spoken by spawning `busctl` (systemd), only when firewalld is selected: a node
 * that runs firewalld runs it under systemd, so busctl is there; it takes typed arguments
 * (`ss zone ip`) and prints typed replies (`b true`), with no shell quoting and no D-Bus
 * library on the plugin path. The calls themselves are data ({@link busctlArgs}) so the
 * exact messages are tested without a system bus.
 */
/** firewalld's bus name, object and zone interface (firewalld.go constants). */
export const FIREWALLD = {
  name: "org.fedoraproject.FirewallD1",
  path: "/org/fedoraproject/FirewallD1",
  zone: "org.fedoraproject.FirewallD1.zone",
} as const;

/** One D-Bus method call: destination, object, interface, member, signature, arguments. */
export interface DbusCall {
  dest: string;
  path: string;
  iface: string;
  member: string;
  signature: string;
  args: readonly string[];
}

/** The answer to a call: ok with busctl's reply text, or the error text the bus gave. */
export type DbusReply = { ok: true; reply: string } | { ok: false; error: string };

/** Runs D-Bus calls on the system bus (busctl in the binary, a fake in tests). */
export interface DbusPort {
  /** False when there is no system bus to talk to (godbus's `SystemBus()` failing). */
  available(): boolean;
  call(c: DbusCall): Promise<DbusReply>;
}

/** isFirewalldRunning: `org.freedesktop.DBus.GetNameOwner("org.fedoraproject.FirewallD1")`. */
export function nameOwnerCall(): DbusCall {
  return {
    dest: "org.freedesktop.DBus",
    path: "/org/freedesktop/DBus",
    iface: "org.freedesktop.DBus",
    member: "GetNameOwner",
    signature: "s",
    args: [FIREWALLD.name],
  };
}

/** A zone method (`addSource`, `removeSource`, `querySource`) with the zone and a host CIDR. */
export function zoneCall(member: "addSource" | "removeSource" | "querySource", zone: string, source: string): DbusCall {
  return {
    dest: FIREWALLD.name,
    path: FIREWALLD.path,
    iface: FIREWALLD.zone,
    member,
    signature: "ss",
    args: [zone, source],
  };
}

/** The busctl argv of a call on the system bus. */
export function busctlArgs(c: DbusCall): string[] {
  return ["busctl", "--system", "call", c.dest, c.path, c.iface, c.member, c.signature, ...c.args];
}

/** True when firewalld owns its bus name (the reference's `isFirewalldRunning`). */
export async function firewalldRunning(bus: DbusPort): Promise<boolean> {
  if (!bus.available()) return false;
  return (await bus.call(nameOwnerCall())).ok;
}

/**
 * ADD: adds each address to the zone; ZONE_ALREADY_SET is success (ADD again). On a
 * failure the sources this call added are removed again, so a failed ADD leaves nothing.
 */
export async function firewalldAdd(bus: DbusPort, zone: string, sources: readonly string[]): Promise<void> {
  const added: string[] = [];
  for (const src of sources) {
    const r = await bus.call(zoneCall("addSource", zone, src));
    if (r.ok) added.push(src);
    else if (!r.error.includes("ZONE_ALREADY_SET")) {
      await firewalldDel(bus, zone, added);
      throw new Error(`failed to add the address ${src} to ${zone} zone: ${r.error}`);
    }
  }
}

/** DEL: removes each address from the zone; errors are ignored (DEL-3), as the reference. */
export async function firewalldDel(bus: DbusPort, zone: string, sources: readonly string[]): Promise<void> {
  for (const src of sources) await bus.call(zoneCall("removeSource", zone, src));
}

/**
 * CHECK: every address is a source of the zone. [DIFF] The reference fails only when the
 * call fails and ignores a `false` reply; a missing source is broken state (CHK-3).
 */
export async function firewalldCheck(bus: DbusPort, zone: string, sources: readonly string[]): Promise<void> {
  for (const src of sources) {
    const r = await bus.call(zoneCall("querySource", zone, src));
    if (!r.ok || r.reply.trim() !== "b true") throw new Error(`failed to find the address ${src} in ${zone} zone`);
  }
}

/** The error when firewalld is asked for but there is no system bus (godbus's dial error). */
export function noSystemBus(socket: string): Error {
  return new Error(`dial unix ${socket}: connect: no such file or directory`);
}
