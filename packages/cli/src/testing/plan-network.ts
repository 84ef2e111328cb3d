/**
 * Test helpers of `cni plan <network> <netns>`: a NETCONFPATH holding one conflist named
 * `web` and a host-local data dir with 198.18.0.2 taken (so the next address is
 * 198.18.0.3), and a deterministic random source.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Writes `plugins` (the string `DATA` standing for the data dir) as network `web` under `dir/name`. */
export function planSetup(
  dir: string,
  name: string,
  plugins: unknown[],
): { env: Record<string, string>; data: string } {
  const conf = join(dir, name, "net.d");
  const data = join(dir, name, "data");
  mkdirSync(conf, { recursive: true });
  mkdirSync(join(data, "web"), { recursive: true });
  // One address already reserved, and the round-robin marker after it (§8.3 layout).
  writeFileSync(join(data, "web", "198.18.0.2"), "other\r\neth0");
  writeFileSync(join(data, "web", "last_reserved_ip.0"), "198.18.0.2");
  const withData = plugins.map((p) => JSON.parse(JSON.stringify(p).replaceAll("DATA", data)));
  writeFileSync(join(conf, "10-web.conflist"), JSON.stringify({ cniVersion: "1.0.0", name: "web", plugins: withData }));
  return { env: { NETCONFPATH: conf, CNI_PATH: "/opt/cni/bin" }, data };
}

/** Deterministic bytes: 1, 2, 3, ... across calls, so names never repeat. */
export function counting(): (n: number) => Uint8Array {
  let next = 1;
  return (n) => Uint8Array.from({ length: n }, () => next++ & 0xff);
}
