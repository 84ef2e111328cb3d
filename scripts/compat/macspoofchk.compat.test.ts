/**
 * bridge `macspoofchk` against the reference bridge (Debian v1.1.1) on the real kernel:
 * both install the same nftables rule set (`nft list table bridge nat`, the host port and
 * MAC taken out), and each one's DEL removes what the other's ADD installed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NetnsSet } from "../lib/netns.ts";
import { OUR_BIN_DIR, REFERENCE_PLUGINS, announceSkip, isRoot, missingReference } from "./_reference.ts";

const missing = missingReference({ go: false });
const skip = missing ?? (isRoot() ? undefined : "not root");
announceSkip("macspoofchk.compat.test.ts", skip);
if (process.env.CI === "true" && skip !== undefined)
  throw new Error(`macspoofchk.compat.test.ts cannot run under CI: ${skip}`);

type Who = "ours" | "reference";
let set: NetnsSet;
let host = "";
let container = "";
let dir = "";

const conf = () => ({
  cniVersion: "1.0.0",
  name: "spoofcompat",
  type: "bridge",
  bridge: "tscnispc",
  macspoofchk: true,
  ipam: { type: "host-local", ranges: [[{ subnet: "198.18.36.0/24" }]], dataDir: join(dir, "ipam") },
});

async function call(
  who: Who,
  command: "ADD" | "DEL",
): Promise<{ code: number; result: { interfaces: { name: string; mac: string }[] } | undefined }> {
  const bin = who === "ours" ? join(OUR_BIN_DIR, "bridge") : join(REFERENCE_PLUGINS, "bridge");
  const proc = Bun.spawn(["ip", "netns", "exec", host, bin], {
    env: {
      PATH: process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin",
      CNI_COMMAND: command,
      CNI_CONTAINERID: "spoofc1",
      CNI_NETNS: NetnsSet.path(container),
      CNI_IFNAME: "eth0",
      CNI_PATH: who === "ours" ? OUR_BIN_DIR : REFERENCE_PLUGINS,
    },
    stdin: new TextEncoder().encode(JSON.stringify(conf())),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  return { code, result: command === "ADD" && code === 0 ? JSON.parse(stdout) : undefined };
}

/** The bridge nat table with this attachment's host port and container MAC replaced by placeholders. */
async function table(port = "", mac = ""): Promise<string> {
  const p = Bun.spawn(["ip", "netns", "exec", host, "nft", "list", "table", "bridge", "nat"], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const text = await new Response(p.stdout).text();
  await p.exited;
  return text.replaceAll(port === "" ? "\u0000" : port, "<port>").replaceAll(mac === "" ? "\u0000" : mac, "<mac>");
}

describe.skipIf(skip !== undefined)("bridge macspoofchk interop with the reference v1.1.1", () => {
  beforeAll(async () => {
    set = new NetnsSet("spoofc");
    host = await set.add("host");
    container = await set.add("c0");
    dir = mkdtempSync(join(tmpdir(), "tscni-spoofc-"));
  });
  afterAll(async () => {
    await set.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  test("both install the same rule set, and each DEL removes the other's chains and jump", async () => {
    const seen: Record<Who, string> = { ours: "", reference: "" };
    for (const [adder, deleter] of [
      ["reference", "ours"],
      ["ours", "reference"],
    ] as const) {
      const add = await call(adder, "ADD");
      expect(add.code).toBe(0);
      const ifs = add.result!.interfaces;
      seen[adder] = await table(ifs[1]!.name, ifs[2]!.mac);
      expect(seen[adder]).toContain(
        'iifname "<port>" jump cni-br-iface-spoofc1-eth0 comment "macspoofchk-spoofc1-eth0"',
      );
      expect((await call(deleter, "DEL")).code).toBe(0);
      expect(await table()).not.toContain("macspoofchk");
    }
    expect(seen.ours).toBe(seen.reference);
  });
});
