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
  tuning: () => import("@tscni/plugins/tuning"),
  static: () => import("@tscni/plugins/static"),
  sbr: () => import("@tscni/plugins/sbr"),
  vrf: () => import("@tscni/plugins/vrf"),
  macvlan: () => import("@tscni/plugins/macvlan"),
  ipvlan: () => import("@tscni/plugins/ipvlan"),
  vlan: () => import("@tscni/plugins/vlan"),
  dummy: () => import("@tscni/plugins/dummy"),
  bandwidth: () => import("@tscni/plugins/bandwidth"),
  "host-device": () => import("@tscni/plugins/host-device"),
  tap: () => import("@tscni/plugins/tap"),
  "cni-shim": () => import("@tscni/server/shim"),
  dhcp: () => import("@tscni/plugins/dhcp"),
};
