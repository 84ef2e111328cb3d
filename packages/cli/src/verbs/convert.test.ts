import { describe, expect, test } from "bun:test";
import type { CommandIO } from "../io.ts";
import { verb } from "./convert.ts";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(argv: string[], stdin: string): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const io: CommandIO = {
    argv,
    env: {},
    readStdin: async () => new TextEncoder().encode(stdin),
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
  };
  const code = await verb.run(io);
  return { code, stdout, stderr };
}

const RESULT_040 = JSON.stringify({
  cniVersion: "0.4.0",
  interfaces: [{ name: "eth0", sandbox: "/var/run/netns/x" }],
  ips: [
    { version: "6", interface: 0, address: "2001:DB8::2/64", gateway: "2001:db8::1" },
    { version: "6", interface: 0, address: "2001:db8::3/64" },
  ],
  routes: [{ dst: "0.0.0.0/0", gw: "10.0.0.1" }, { dst: "::/0" }],
  dns: {},
});

describe("cni convert", () => {
  test("converts a 0.4.0 result to 0.2.0 and prints it as Go does (CV-1, R-3)", async () => {
    const out = await run(["--to", "0.2.0"], RESULT_040);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(
      [
        "{",
        '    "cniVersion": "0.2.0",',
        '    "ip6": {',
        '        "ip": "2001:db8::2/64",',
        '        "gateway": "2001:db8::1",',
        '        "routes": [',
        "            {",
        '                "dst": "::/0"',
        "            }",
        "        ]",
        "    },",
        '    "dns": {}',
        "}",
      ].join("\n"),
    );
  });

  test("accepts --to=VERSION and converts up to 1.1.0", async () => {
    const out = await run(["--to=1.1.0"], RESULT_040);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({
      cniVersion: "1.1.0",
      interfaces: [{ name: "eth0", sandbox: "/var/run/netns/x" }],
      ips: [
        { interface: 0, address: "2001:db8::2/64", gateway: "2001:db8::1" },
        { interface: 0, address: "2001:db8::3/64" },
      ],
      routes: [{ dst: "0.0.0.0/0", gw: "10.0.0.1" }, { dst: "::/0" }],
    });
  });

  test("uses --from-config-version for a result without cniVersion (RP-2)", async () => {
    const out = await run(["--to", "0.4.0", "--from-config-version", "1.0.0"], '{"ips":[{"address":"10.0.0.2/8"}]}');
    expect(JSON.parse(out.stdout)).toEqual({
      cniVersion: "0.4.0",
      ips: [{ version: "4", address: "10.0.0.2/8" }],
      dns: {},
    });
  });

  test("prints a code 6 error and exits 1 on bad JSON", async () => {
    const out = await run(["--to", "0.2.0"], "{");
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout).code).toBe(6);
  });

  test("prints a code 1 error and exits 1 on an unknown target version", async () => {
    const out = await run(["--to", "9.9.9"], RESULT_040);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout)).toEqual({ code: 1, msg: "no converter for CNI result version 0.4.0 to 9.9.9" });
  });

  test("prints an error and exits 1 when the target version cannot hold the result", async () => {
    const out = await run(["--to", "0.1.0"], '{"cniVersion":"1.0.0","interfaces":[{"name":"eth0"}]}');
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout).msg).toBe("cannot convert: no valid IP addresses");
  });

  test("a missing --to or an unknown argument is a usage error with exit code 2", async () => {
    expect((await run([], RESULT_040)).code).toBe(2);
    const unknown = await run(["--to", "0.2.0", "--frob"], RESULT_040);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown argument "--frob"');
    expect((await run(["--to"], RESULT_040)).stderr).toContain("--to needs a value");
  });

  test("the help text names the options", () => {
    expect(verb.help).toContain("--to VERSION");
    expect(verb.help).toContain("--from-config-version");
  });
});

describe("cni convert as a process", () => {
  test("bun run packages/cli/src/main.ts convert --to 0.2.0 converts stdin", () => {
    const root = new URL("../../../../", import.meta.url).pathname;
    const proc = Bun.spawnSync([process.execPath, "run", "packages/cli/src/main.ts", "convert", "--to", "0.2.0"], {
      cwd: root,
      stdin: new TextEncoder().encode('{"cniVersion":"1.0.0","ips":[{"address":"10.0.0.2/8","gateway":"10.0.0.1"}]}'),
    });
    expect(proc.exitCode).toBe(0);
    expect(proc.stdout.toString()).toBe(
      '{\n    "cniVersion": "0.2.0",\n    "ip4": {\n        "ip": "10.0.0.2/8",\n        "gateway": "10.0.0.1"\n    },\n    "dns": {}\n}',
    );
  });
});
