/**
 * Plugin config keys in another letter case, against the reference plugins (v1.1): Go's
 * encoding/json matches `{"MTU":"x"}` to the `mtu` field, so a wrongly typed value there
 * fails the reference's ADD before it touches anything; ours must fail with the same
 * message (@tscni/spec/go `foldToSchema`, used by the plugins' config decoding). The code
 * differs by design (v1.1.1 wraps config errors as 999, SPEC §4.2 gives 7), so only the
 * message is compared. The netns does not exist: a config that parsed would fail there.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { announceSkip, isRoot, missingReference, OUR_BIN_DIR, REFERENCE_PLUGINS } from "./_reference.ts";
import { throwawayHost } from "./_throwaway-host.ts";

const skip =
  missingReference({ go: false }) ?? (isRoot() ? undefined : "not root (the calls run in a throwaway namespace)");
announceSkip("plugins-folded-keys.compat.test.ts", skip);

const inHost = throwawayHost("folded", skip === undefined);

function message(bin: string, stdin: Record<string, unknown>): unknown {
  const proc = Bun.spawnSync([...inHost(), bin], {
    stdin: new TextEncoder().encode(JSON.stringify({ cniVersion: "1.0.0", name: "folded", ...stdin })),
    env: {
      CNI_COMMAND: "ADD",
      CNI_CONTAINERID: "folded-keys",
      CNI_NETNS: "/var/run/netns/tscni-folded-keys-absent",
      CNI_IFNAME: "eth0",
      CNI_PATH: REFERENCE_PLUGINS,
    },
  });
  return (JSON.parse(proc.stdout.toString()) as { msg?: unknown }).msg;
}

const PREV = { cniVersion: "1.0.0", interfaces: [{ name: "eth0", sandbox: "/x" }], ips: [] };

describe.skipIf(skip !== undefined)("a plugin config key in another letter case is its field, as in Go", () => {
  test.each([
    ["bridge", { type: "bridge", MTU: "x" }],
    ["ptp", { type: "ptp", IPMasq: 1 }],
    ["macvlan", { type: "macvlan", Master: 5 }],
    ["vlan", { type: "vlan", VlanId: "x" }],
    ["tuning", { type: "tuning", Mtu: "x", prevResult: PREV }],
    ["vrf", { type: "vrf", VRFName: 5 }],
    ["host-local", { type: "host-local", IPAM: { Subnet: "x" } }],
  ] as const)("%s", (plugin, stdin) => {
    const reference = message(join(REFERENCE_PLUGINS, plugin), stdin);
    expect(String(reference)).not.toContain("netns");
    expect(message(join(OUR_BIN_DIR, plugin), stdin)).toEqual(reference);
  });
});
