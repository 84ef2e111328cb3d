/**
 * The spec versions each plugin of this binary supports, as data, so that VERSION can be
 * answered before any plugin code loads: the reply is static (VER-3: the Go skel does not
 * read stdin for VERSION either, and always names the library's current version).
 * `plugin-versions.test.ts` proves each entry equals what the plugin itself replies.
 */
// The version module alone: the spec index would pull schemas into start-up.
import { CURRENT_VERSION, VERSIONS, versionsStartingFrom } from "@tscni/spec/version";

/** Plugin name to the versions its definition declares. */
export const PLUGIN_VERSIONS: Readonly<Record<string, readonly string[]>> = {
  loopback: VERSIONS,
  "host-local": VERSIONS,
  bridge: VERSIONS,
  ptp: VERSIONS,
  portmap: VERSIONS,
  "host-device": VERSIONS,
  tap: VERSIONS,
  // The reference firewall plugin starts at 0.4.0 (firewall.go VersionsStartingFrom).
  firewall: versionsStartingFrom("0.4.0"),
  tuning: VERSIONS,
  static: VERSIONS,
  sbr: VERSIONS,
  // The reference vrf plugin starts at 0.3.1 (main.go VersionsStartingFrom).
  vrf: versionsStartingFrom("0.3.1"),
  macvlan: VERSIONS,
  ipvlan: VERSIONS,
  vlan: VERSIONS,
  dummy: VERSIONS,
  dhcp: VERSIONS,
  // The reference bandwidth plugin starts at 0.3.0 (main.go VersionsStartingFrom).
  bandwidth: versionsStartingFrom("0.3.0"),
};

/** The VERSION reply of a plugin, exactly as the skel prints it (compact JSON, newline). */
export function versionReply(versions: readonly string[]): string {
  return `${JSON.stringify({ cniVersion: CURRENT_VERSION, supportedVersions: versions })}\n`;
}
