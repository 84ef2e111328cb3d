/**
 * The production {@link DbusPort}: `busctl --system call ...` spawned per call (see
 * firewalld.ts for why busctl). Only the firewall plugin's entry imports this file, and
 * busctl runs only when the system bus socket exists.
 */
import { existsSync } from "node:fs";
import { busctlArgs, type DbusPort } from "./firewalld.ts";

/** Where the system bus listens: `DBUS_SYSTEM_BUS_ADDRESS` (`unix:path=...`) or the well-known socket. */
export function systemBusSocket(env: Readonly<Record<string, string | undefined>>): string {
  const m = /(?:^|;)unix:path=([^,;]+)/.exec(env.DBUS_SYSTEM_BUS_ADDRESS ?? "");
  return m?.[1] ?? "/var/run/dbus/system_bus_socket";
}

/** busctl over the system bus named by `env`. */
export function busctlPort(env: Readonly<Record<string, string | undefined>>): DbusPort {
  const socket = systemBusSocket(env);
  return {
    available: () => existsSync(socket),
    call: async (c) => {
      let proc;
      try {
        proc = Bun.spawn(busctlArgs(c), {
          stdout: "pipe",
          stderr: "pipe",
          stdin: "ignore",
          env: { ...process.env, DBUS_SYSTEM_BUS_ADDRESS: `unix:path=${socket}` },
        });
      } catch (err) {
        return { ok: false, error: err instanceof Error ? err.message : String(err) };
      }
      const [out, errText, code] = await Promise.all([
        new Response(proc.stdout).text(),
        new Response(proc.stderr).text(),
        proc.exited,
      ]);
      // busctl prints "Call failed: <D-Bus error message>" on a failed call.
      return code === 0 ? { ok: true, reply: out } : { ok: false, error: errText.trim().replace(/^Call failed: /, "") };
    },
  };
}
