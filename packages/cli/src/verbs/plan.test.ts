import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CommandIO } from "../io.ts";
import { parsePlanArgs, verb } from "./plan.ts";

const dir = mkdtempSync(join(tmpdir(), "tscni-plan-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function plan(argv: string[], stdin = ""): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: CommandIO = {
    argv,
    env: {},
    readStdin: async () => new TextEncoder().encode(stdin),
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
  };
  return { code: await verb.run(io), out, err };
}

const batch = [
  { op: "veth.add", ns: "/var/run/netns/c1", name: "eth0", peer: { name: "veth1", ns: "host" } },
  { op: "addr.add", ns: "/var/run/netns/c1", dev: "eth0", cidr: "198.18.0.5/24", nodad: true },
];

describe("cni plan", () => {
  test("prints a batch from a file as an iproute2 script", async () => {
    const file = join(dir, "b.json");
    writeFileSync(file, JSON.stringify(batch));
    const r = await plan(["--batch", file]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      "nsenter --net=/var/run/netns/c1 ip -batch - <<EOF\nlink add eth0 type veth peer name veth1 netns /proc/$$/ns/net\naddr add 198.18.0.5/24 dev eth0 nodad\nEOF\n",
    );
  });

  test("reads the batch from stdin and takes the host reference from --host-ref", async () => {
    const r = await plan(["--host-ref=/proc/1/ns/net"], JSON.stringify(batch));
    expect(r.code).toBe(0);
    expect(r.out).toContain("<<'EOF'\nlink add eth0 type veth peer name veth1 netns /proc/1/ns/net\n");
  });

  test("rejects an invalid batch with the path of each issue", async () => {
    const r = await plan(
      ["--batch", "-"],
      JSON.stringify([{ op: "link.del", ns: "host", name: "a b" }, { op: "nope" }]),
    );
    expect(r.code).toBe(1);
    expect(r.err).toContain("0.name: invalid interface name");
    expect(r.err).toContain("1.op");
    expect(r.out).toBe("");
  });

  test("reports text that is not JSON and a file that cannot be read", async () => {
    expect((await plan([], "{")).err).toContain("batch is not JSON");
    const missing = await plan(["--batch", join(dir, "missing.json")]);
    expect([missing.code, missing.err.startsWith(`cni plan: cannot read "${join(dir, "missing.json")}"`)]).toEqual([
      1,
      true,
    ]);
  });

  test("usage errors exit 2 with the help", async () => {
    expect(parsePlanArgs(["--batch"])).toBe('option "--batch" needs a value');
    const r = await plan(["--frobnicate"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('unknown option "--frobnicate"');
    expect(r.err).toContain("usage: cni plan");
  });
});
