/**
 * The skel's reading of stdin against the reference's (v1.1): Go decodes `name` and
 * `cniVersion` with encoding/json, so a key in another letter case counts, every
 * occurrence of it is type-checked, `null` keeps an earlier value, and invalid UTF-8 is
 * U+FFFD byte by byte (§1.11 step 4). Each case fails before the plugin touches anything
 * (a bad config, a bad version, or a netns that does not exist), and both sides must fail
 * alike. loopback is the plugin: its ADD does nothing else before the netns.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { announceSkip, isRoot, missingReference, OUR_BIN_DIR, REFERENCE_PLUGINS } from "./_reference.ts";
import { throwawayHost } from "./_throwaway-host.ts";

const skip =
  missingReference({ go: false }) ?? (isRoot() ? undefined : "not root (the calls run in a throwaway namespace)");
announceSkip("skel-stdin.compat.test.ts", skip);

const inHost = throwawayHost("skelstdin", skip === undefined);

/**
 * The error's code, message and details; the netns message differs by design (compared by
 * code only), and so do the details of a version error (we support 1.1.0 too).
 */
function answer(bin: string, command: string, stdin: Uint8Array): Record<string, unknown> {
  const proc = Bun.spawnSync([...inHost(), bin], {
    stdin,
    env: {
      CNI_COMMAND: command,
      CNI_CONTAINERID: "skel-stdin",
      CNI_NETNS: "/var/run/netns/tscni-skel-stdin-absent",
      CNI_IFNAME: "eth0",
      CNI_PATH: REFERENCE_PLUGINS,
    },
  });
  const out = JSON.parse(proc.stdout.toString()) as { code: unknown; msg: string; details?: string };
  if (out.code === 999) return { code: out.code };
  return { code: out.code, msg: out.msg, ...(out.code === 1 ? {} : { details: out.details }) };
}

const text = (s: string) => new TextEncoder().encode(s);

describe.skipIf(skip !== undefined)("the skel reads stdin's name and cniVersion as the Go skel does", () => {
  test.each([
    ["a name in another letter case", "FOO", text('{"Name":"n"}')],
    ["a wrongly typed name before the right one", "FOO", text('{"name":0,"name":"n"}')],
    ["a wrongly typed name in another case", "FOO", text('{"NAME":true,"name":"n"}')],
    ["null after a name", "FOO", text('{"NAME":"n","name":null}')],
    ["a bad name in another case", "FOO", text('{"nAme":"bad name"}')],
    [
      "a name with a truncated UTF-8 sequence",
      "FOO",
      Uint8Array.from([...text('{"name":"n'), 0xed, 0x80, ...text('"}')]),
    ],
    ["a name in another case, ADD", "ADD", text('{"Name":"n","cniVersion":"1.0.0"}')],
    [
      "a wrongly typed cniVersion before the right one",
      "ADD",
      text('{"name":"n","cniVersion":0,"CNIVERSION":"1.0.0"}'),
    ],
    ["an array cniVersion before the right one", "ADD", text('{"name":"n","cniVersion":[],"cniVersion":"1.0.0"}')],
    ["a version too new in another case", "ADD", text('{"name":"n","Cniversion":"9.9.9"}')],
    ["a version too new, then null", "ADD", text('{"name":"n","cniVersion":"9.9.9","cniVersion":null}')],
  ])("%s", (_label, command, stdin) => {
    const ours = answer(join(OUR_BIN_DIR, "loopback"), command, stdin);
    const reference = answer(join(REFERENCE_PLUGINS, "loopback"), command, stdin);
    expect(ours).toEqual(reference);
  });
});
