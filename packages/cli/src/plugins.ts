/**
 * The plugins this one binary can be: argv[0]'s basename picks one. A static table of
 * lazy loaders, so only the chosen plugin's code is evaluated at start-up.
 */
import type { CommandIO } from "./io.ts";

/** Plugin name to a loader of its entry (each module exports `main(io)`). */
export const PLUGINS: Readonly<Record<string, () => Promise<{ main: (io: CommandIO) => Promise<number> }>>> = {
  loopback: () => import("@tscni/plugins/loopback"),
  "host-local": () => import("@tscni/plugins/host-local"),
  bridge: () => import("@tscni/plugins/bridge"),
  ptp: () => import("@tscni/plugins/ptp"),
  portmap: () => import("@tscni/plugins/portmap"),
  firewall: () => import("@tscni/plugins/firewall"),
  "host-device": () => import("@tscni/plugins/host-device"),
  tap: () => import("@tscni/plugins/tap"),
  "cni-shim": () => import("@tscni/server/shim"),
};
