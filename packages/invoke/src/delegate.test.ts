import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { delegateDel, delegateGC, delegateStatus } from "./delegate.ts";
import { scriptDir } from "./testing/dir.ts";
import type { ScriptDir } from "./testing/dir.ts";

let d: ScriptDir;
beforeAll(() => {
  d = scriptDir();
  d.script("ipam", `cat > "${d.dir}/ipam.stdin"; env | grep -E '^(CNI_|MARK=)' | sort > "${d.dir}/ipam.env"`);
  d.script("broken", `echo '{"code":7,"msg":"no range"}'; exit 1`);
});
afterAll(() => d.cleanup());

const env = () => ({
  CNI_COMMAND: "ADD",
  CNI_CONTAINERID: "c1",
  CNI_NETNS: "/run/netns/c1",
  CNI_IFNAME: "eth0",
  CNI_ARGS: "IgnoreUnknown=1",
  CNI_PATH: `/nonexistent:${d.dir}`,
  MARK: "kept",
});

describe("delegation", () => {
  test("finds the delegate in CNI_PATH and gives it the same env with only CNI_COMMAND replaced (DLG-1, DLG-3)", async () => {
    await delegateDel("ipam", new TextEncoder().encode('{"name":"n","ipam":{"type":"ipam"}}'), env());
    expect(d.read("ipam.stdin")).toBe('{"name":"n","ipam":{"type":"ipam"}}');
    expect(d.read("ipam.env")).toBe(
      `CNI_ARGS=IgnoreUnknown=1\nCNI_COMMAND=DEL\nCNI_CONTAINERID=c1\nCNI_IFNAME=eth0\nCNI_NETNS=/run/netns/c1\nCNI_PATH=/nonexistent:${d.dir}\nMARK=kept\n`,
    );
  });

  test("overrides the command for STATUS and GC too (DLG-3)", async () => {
    await delegateStatus("ipam", new TextEncoder().encode("{}"), env());
    expect(d.read("ipam.env")).toContain("CNI_COMMAND=STATUS\n");
    await delegateGC("ipam", new TextEncoder().encode("{}"), env());
    expect(d.read("ipam.env")).toContain("CNI_COMMAND=GC\n");
  });

  test("passes the delegate's error on unchanged (DEL-6)", async () => {
    await expect(delegateDel("broken", new Uint8Array(), env())).rejects.toMatchObject({ code: 7, msg: "no range" });
  });

  test("fails when the delegate is not in CNI_PATH (FP-5)", async () => {
    await expect(delegateDel("absent", new Uint8Array(), env())).rejects.toThrow(
      'failed to find plugin "absent" in path',
    );
  });
});
