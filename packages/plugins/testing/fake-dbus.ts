/**
 * A test double of the system bus with firewalld on it: zones hold sources and answer as
 * firewalld's zone API does (ZONE_ALREADY_SET, UNKNOWN_SOURCE, `b true`). Tests only.
 */
import type { DbusCall, DbusPort, DbusReply } from "../firewall/firewalld.ts";

/** A system bus with firewalld in memory: zones hold sources, as firewalld's zone API does. */
export function fakeFirewalld(
  opts: { running?: boolean; available?: boolean; failAdd?: string } = {},
): DbusPort & { zones: Map<string, Set<string>>; calls: DbusCall[] } {
  const zones = new Map<string, Set<string>>();
  const calls: DbusCall[] = [];
  const zone = (z: string): Set<string> => zones.get(z) ?? zones.set(z, new Set()).get(z)!;
  return {
    zones,
    calls,
    available: () => opts.available ?? true,
    call: async (c): Promise<DbusReply> => {
      calls.push(c);
      if (c.member === "GetNameOwner")
        return opts.running === false
          ? { ok: false, error: "The name org.fedoraproject.FirewallD1 was not provided by any .service files" }
          : { ok: true, reply: 's ":1.5"\n' };
      if (opts.running === false) return { ok: false, error: "The name is not activatable" };
      const [z = "", src = ""] = c.args;
      if (c.member === "addSource") {
        if (src === opts.failAdd) return { ok: false, error: "INVALID_ADDR: " + src };
        if (zone(z).has(src)) return { ok: false, error: `ZONE_ALREADY_SET: '${src}' already bound to '${z}'` };
        zone(z).add(src);
        return { ok: true, reply: `s "${z}"\n` };
      }
      if (c.member === "removeSource") {
        if (!zone(z).delete(src)) return { ok: false, error: `UNKNOWN_SOURCE: ${src}` };
        return { ok: true, reply: `s "${z}"\n` };
      }
      return { ok: true, reply: `b ${zone(z).has(src)}\n` };
    },
  };
}
