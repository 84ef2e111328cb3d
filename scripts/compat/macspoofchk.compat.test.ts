/**
 * bridge `macspoofchk` against the reference bridge (Debian v1.1.1) on the real kernel:
 * both install the same nftables rule set (`nft list table bridge nat`, the host port and
 * MAC taken out), and each one's DEL removes what the other's ADD installed.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { hostAndContainer, type Who } from "./_host-and-container.ts";
import { announceSkip, isRoot, missingReference } from "./_reference.ts";

const missing = missingReference({ go: false });
const skip = missing ?? (isRoot() ? undefined : "not root");
announceSkip("macspoofchk.compat.test.ts", skip);
if (process.env.CI === "true" && skip !== undefined)
  throw new Error(`macspoofchk.compat.test.ts cannot run under CI: ${skip}`);

const conf = (dir: string) => ({
  cniVersion: "1.0.0",
  name: "spoofcompat",
  type: "bridge",
  bridge: "tscnispc",
  macspoofchk: true,
  ipam: { type: "host-local", ranges: [[{ subnet: "198.18.36.0/24" }]], dataDir: join(dir, "ipam") },
});

/** The bridge nat table with this attachment's host port and container MAC replaced by placeholders. */
async function table(host: string, port = "", mac = ""): Promise<string> {
  const p = Bun.spawn(["ip", "netns", "exec", host, "nft", "list", "table", "bridge", "nat"], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const text = await new Response(p.stdout).text();
  await p.exited;
  return text.replaceAll(port === "" ? "\u0000" : port, "<port>").replaceAll(mac === "" ? "\u0000" : mac, "<mac>");
}

describe.skipIf(skip !== undefined)("bridge macspoofchk interop with the reference v1.1.1", () => {
  const ns = hostAndContainer("spoofc");
  const call = async (who: Who, command: "ADD" | "DEL") => {
    const r = await ns.call(who, "bridge", { command, containerID: "spoofc1" }, conf(ns.dir));
    const result: { interfaces: { name: string; mac: string }[] } | undefined =
      command === "ADD" && r.code === 0 ? JSON.parse(r.stdout) : undefined;
    return { code: r.code, result };
  };

  test("both install the same rule set, and each DEL removes the other's chains and jump", async () => {
    const seen: Record<Who, string> = { ours: "", reference: "" };
    for (const [adder, deleter] of [
      ["reference", "ours"],
      ["ours", "reference"],
    ] as const) {
      const add = await call(adder, "ADD");
      expect(add.code).toBe(0);
      const ifs = add.result!.interfaces;
      seen[adder] = await table(ns.host, ifs[1]!.name, ifs[2]!.mac);
      expect(seen[adder]).toContain(
        'iifname "<port>" jump cni-br-iface-spoofc1-eth0 comment "macspoofchk-spoofc1-eth0"',
      );
      expect((await call(deleter, "DEL")).code).toBe(0);
      expect(await table(ns.host)).not.toContain("macspoofchk");
    }
    expect(seen.ours).toBe(seen.reference);
  });
});
