import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { decodeVersionInfo, getVersionInfo } from "./version-info.ts";
import { scriptDir } from "./testing/dir.ts";
import type { ScriptDir } from "./testing/dir.ts";

let d: ScriptDir;
beforeAll(() => {
  d = scriptDir();
});
afterAll(() => d.cleanup());

describe("getVersionInfo", () => {
  test('probes with VERSION, dummy NETNS/IFNAME/PATH and stdin {"cniVersion":"1.1.0"} (VER-4)', async () => {
    const path = d.script(
      "probe",
      `cat > "${d.dir}/probe.stdin"; env | grep '^CNI_' | sort > "${d.dir}/probe.env"
echo '{"cniVersion":"1.1.0","supportedVersions":["0.4.0","1.0.0"]}'`,
    );
    expect(await getVersionInfo(path)).toEqual({ cniVersion: "1.1.0", supportedVersions: ["0.4.0", "1.0.0"] });
    expect(d.read("probe.stdin")).toBe('{"cniVersion":"1.1.0"}');
    expect(d.read("probe.env")).toBe(
      "CNI_ARGS=\nCNI_COMMAND=VERSION\nCNI_CONTAINERID=\nCNI_IFNAME=dummy\nCNI_NETNS=dummy\nCNI_PATH=dummy\n",
    );
  });

  test("takes a plugin that does not know VERSION for a 0.1.0 plugin (VER-5)", async () => {
    const path = d.script("old", `echo '{"code":4,"msg":"unknown CNI_COMMAND: VERSION"}'; exit 1`);
    expect(await getVersionInfo(path)).toEqual({ cniVersion: "1.1.0", supportedVersions: ["0.1.0"] });
  });

  test("passes any other failure on, even one that only resembles the old message (VER-5)", async () => {
    const withDetails = d.script(
      "details",
      `echo '{"code":4,"msg":"unknown CNI_COMMAND: VERSION","details":"x"}'; exit 1`,
    );
    await expect(getVersionInfo(withDetails)).rejects.toThrow("unknown CNI_COMMAND: VERSION; x");
    const onStderr = d.script("stderr", `echo 'unknown CNI_COMMAND: VERSION' >&2; exit 1`);
    await expect(getVersionInfo(onStderr)).rejects.toThrow("netplugin failed:");
  });
});

describe("decodeVersionInfo (VER-6)", () => {
  test("requires cniVersion", () => {
    expect(() => decodeVersionInfo('{"supportedVersions":["1.0.0"]}')).toThrow(
      "decoding version info: missing field cniVersion",
    );
  });

  test("requires a non-empty supportedVersions", () => {
    expect(() => decodeVersionInfo('{"cniVersion":"1.0.0"}')).toThrow(
      "decoding version info: missing field supportedVersions",
    );
    expect(() => decodeVersionInfo('{"cniVersion":"1.0.0","supportedVersions":[]}')).toThrow(
      "missing field supportedVersions",
    );
  });

  test("reads a bare 0.2.0 reply as supporting 0.1.0 and 0.2.0", () => {
    expect(decodeVersionInfo('{"cniVersion":"0.2.0"}').supportedVersions).toEqual(["0.1.0", "0.2.0"]);
  });

  test("fails on a reply that is not JSON", () => {
    expect(() => decodeVersionInfo("")).toThrow("decoding version info: unexpected end of JSON input");
  });
});
