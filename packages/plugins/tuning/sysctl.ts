/**
 * tuning's sysctl keys (reference `getSysctlFilename`) and allowlist (`validateSysctlConf`):
 * a key's dots become `/`, its first `IFNAME` the container interface, the path is
 * cleaned under /proc/sys and must stay under /proc/sys/net/ (only the container's
 * network namespace is ever written). When /etc/cni/tuning/allowlist.conf exists, every
 * key must match one of its lines (regular expressions, unanchored).
 */
import { posix } from "node:path";
import { goQuote } from "@tscni/spec/go";
import { invalidConfig } from "../shared/netconf.ts";

/** The reference's allowlist file. */
export const ALLOWLIST_PATH = "/etc/cni/tuning/allowlist.conf";

/** Go's `filepath.Join("/proc/sys", key)`: cleaned, no trailing slash. */
function procPath(key: string): string {
  const joined = posix.join("/proc/sys", key);
  return joined.length > 1 && joined.endsWith("/") ? joined.slice(0, -1) : joined;
}

/**
 * The /proc/sys file of a configured key, or the reference's error for a key outside
 * /proc/sys/net.
 *
 * @example sysctlFile("net.ipv4.conf.IFNAME.arp_notify", "eth0") // "/proc/sys/net/ipv4/conf/eth0/arp_notify"
 */
export function sysctlFile(key: string, ifName: string): string {
  const slashed = key.replaceAll(".", "/").replace("IFNAME", ifName);
  const file = procPath(slashed);
  // v1.1.1 (Debian) differs: code 999; SPEC §4.2 gives code 7 (invalid network config)
  if (!file.startsWith("/proc/sys/net/")) throw invalidConfig(`invalid net sysctl key: ${goQuote(slashed)}`);
  return file;
}

/**
 * The Kernel port's key for a /proc/sys file: dotted, or `/`-separated when a segment
 * holds a dot (an interface name such as `eth0.100`), as `sysctl.set` takes it.
 */
export function kernelKey(file: string): string {
  const parts = file.slice("/proc/sys/".length).split("/");
  return parts.some((p) => p.includes(".")) ? parts.join("/") : parts.join(".");
}

/** The allowlist's entries: its non-empty lines, trimmed; undefined when the file does not exist. */
export function parseAllowlist(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

/** Refuses the first key no entry matches (`regexp.MatchString`: a match anywhere in the key). */
export function checkAllowlist(keys: readonly string[], allowlist: readonly string[] | undefined): void {
  if (allowlist === undefined) return;
  for (const key of keys) {
    const ok = allowlist.some((pattern) => {
      try {
        return new RegExp(pattern).test(key);
      } catch (err) {
        throw invalidConfig(`error parsing regexp: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
    if (!ok)
      throw invalidConfig(
        `Sysctl ${key} is not allowed. Only the following sysctls are allowed: [${allowlist.join(" ")}]`,
      );
  }
}
