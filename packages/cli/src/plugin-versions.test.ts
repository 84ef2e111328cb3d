import { describe, expect, test } from "bun:test";
import type { CommandIO } from "./io.ts";
import { PLUGIN_VERSIONS, versionReply } from "./plugin-versions.ts";
import { PLUGINS } from "./plugins.ts";

async function slowVersion(name: string): Promise<{ code: number; stdout: string }> {
  let stdout = "";
  const io: CommandIO = {
    argv: [],
    env: { CNI_COMMAND: "VERSION" },
    readStdin: async () => new TextEncoder().encode('{"cniVersion":"1.0.0"}'),
    stdout: (s) => {
      stdout += s;
    },
    stderr: () => {},
  };
  const load = PLUGINS[name];
  if (load === undefined) throw new Error(`no plugin ${name}`);
  const code = await (await load()).main(io);
  return { code, stdout };
}

describe("the VERSION fast path answers exactly as each plugin would (VER-2, VER-3)", () => {
  for (const name of Object.keys(PLUGIN_VERSIONS)) {
    test(`${name}: the static reply equals the plugin's own VERSION output`, async () => {
      const slow = await slowVersion(name);
      expect(slow.code).toBe(0);
      expect(JSON.parse(versionReply(PLUGIN_VERSIONS[name]!))).toEqual(JSON.parse(slow.stdout));
    });
  }

  test("every plugin with a fast-path entry is a plugin of the binary", () => {
    for (const name of Object.keys(PLUGIN_VERSIONS)) expect(Object.keys(PLUGINS)).toContain(name);
  });
});
