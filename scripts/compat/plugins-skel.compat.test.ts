/**
 * Differential tests of the plugin framework: the same environment and stdin sent to the
 * reference plugins (/usr/lib/cni, v1.1) and to ours (dist/bin), in twin namespace sets,
 * must give the same exit code, error code and message, and result (SPEC.md §1.1, §1.11,
 * §2.5, §6.4). Where we differ on purpose, the test asserts our documented behaviour and
 * names the rule.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { announceSkip } from "./_reference.ts";
import {
  ARGS_CODE,
  ARGS_OR_CONFIG_CODE,
  CONFIG_CODE,
  comparableAnswer,
  expectSame,
  expectSameOrKnown,
  expectVersionDifference,
  twinSkipReason,
  type KnownDifference,
  type VersionDifference,
} from "./_diff.ts";
import { Twin, type Answer, type Req, type SideCtx } from "./_twin.ts";

const skip = twinSkipReason();
/** Generous: each test runs dozens of plugin calls on a machine that may be busy. */
const TIMEOUT_MS = 120_000;
announceSkip("plugins-skel.compat.test.ts", skip);

const PLUGINS = ["bridge", "ptp", "host-local", "loopback"] as const;
type Plugin = (typeof PLUGINS)[number];
const SUBNET: Record<Plugin, string> = {
  bridge: "198.18.70.0/24",
  ptp: "198.18.71.0/24",
  "host-local": "198.18.72.0/24",
  loopback: "",
};

/** A valid config of `plugin` at `version` (undefined: no cniVersion key), plus `extra`. */
function conf(
  plugin: Plugin,
  version: string | undefined,
  extra: Record<string, unknown> = {},
): (s: SideCtx) => Record<string, unknown> {
  return (s) => {
    const ipam = { type: "host-local", ranges: [[{ subnet: SUBNET[plugin] }]], dataDir: s.dataDir };
    const base: Record<string, unknown> = {
      name: `tskel-${plugin}`,
      type: plugin,
      ...(version === undefined ? {} : { cniVersion: version }),
    };
    if (plugin === "bridge") Object.assign(base, { bridge: "tskbr0", ipam });
    if (plugin === "ptp" || plugin === "host-local") Object.assign(base, { ipam });
    return { ...base, ...extra };
  };
}

let twin: Twin;
beforeAll(async () => {
  if (skip === undefined) twin = await Twin.create("skel", 1);
}, TIMEOUT_MS);
afterAll(async () => {
  await twin?.close();
}, TIMEOUT_MS);

let serial = 0;

/**
 * One labelled request. With a {@link VersionDifference}, each side's answer is asserted
 * instead of both alike; with a {@link KnownDifference}, ours is the one it maps the
 * reference's answer to.
 */
type Case = [string, Req] | [string, Req, VersionDifference | KnownDifference];

/**
 * Runs `cases` one after the other per plugin (addresses stay in order), the plugins at
 * once. Every case gets its own container ID and interface name, and an ADD is undone
 * on both sides whatever it answered, so that no case sees another's leftovers.
 */
async function perPlugin(cases: (p: Plugin) => Case[]): Promise<void> {
  await Promise.all(
    PLUGINS.map(async (p) => {
      for (const [label, req, differs] of cases(p)) {
        const n = ++serial;
        const id = {
          containerID: req.containerID === undefined ? `${p}-${n}` : req.containerID,
          ifName: req.ifName === undefined ? (p === "loopback" ? "lo" : `e${n}`) : req.ifName,
        };
        if (differs === undefined || typeof differs === "function")
          await expectSameOrKnown(twin, `${p}: ${label}`, { ...req, ...id }, differs);
        else expectVersionDifference(`${p}: ${label}`, await twin.call({ ...req, ...id }), differs);
        if (req.command === "ADD") await twin.call({ ...req, ...id, command: "DEL", env: {}, args: "" });
      }
    }),
  );
}

describe.skipIf(skip !== undefined)("the framework answers as the reference's skel", () => {
  test(
    "for every missing environment variable and combination (§1.1, ENV-2)",
    async () => {
      const vars = ["CNI_COMMAND", "CNI_CONTAINERID", "CNI_NETNS", "CNI_IFNAME", "CNI_ARGS", "CNI_PATH"];
      await perPlugin((p) =>
        ["ADD", "DEL", "CHECK"].flatMap((cmd): [string, Req][] => [
          ...vars.map((v): [string, Req] => [
            `${cmd} without ${v}`,
            { plugin: p, command: cmd, env: { [v]: null }, config: conf(p, "1.0.0") },
          ]),
          [
            `${cmd} without any`,
            {
              plugin: p,
              command: cmd,
              containerID: null,
              netns: null,
              ifName: null,
              path: null,
              config: conf(p, "1.0.0"),
            },
          ],
          [
            `${cmd} without netns and path`,
            { plugin: p, command: cmd, netns: null, path: null, config: conf(p, "1.0.0") },
          ],
        ]),
      );
    },
    TIMEOUT_MS,
  );

  test(
    "for bad container IDs and interface names (VAL-2, VAL-3), checked while the environment is scanned (ENV-3)",
    async () => {
      const ids = ["a b", "-x", "c/1", "é", ".x"];
      const ifnames = [
        "",
        "x".repeat(16),
        "é".repeat(8),
        ".",
        "..",
        "eth 0",
        "eth:0",
        "eth/0",
        "eth\u00a0",
        "eth\u2003",
      ];
      const badID: Answer = { exit: 1, error: { code: 4, msg: "invalid characters in containerID" } };
      const badIfname: Answer = {
        exit: 1,
        error: { code: 4, msg: "interface name contains / or : or whitespace characters" },
      };
      await perPlugin((p) =>
        ["ADD", "DEL", "CHECK"].flatMap((cmd): Case[] => [
          ...ids.map(
            (id): Case => [
              `${cmd} container ID ${JSON.stringify(id)}`,
              { plugin: p, command: cmd, containerID: id, config: conf(p, "1.0.0") },
            ],
          ),
          ...ifnames.map(
            (n): Case => [
              `${cmd} ifname ${JSON.stringify(n)}`,
              { plugin: p, command: cmd, ifName: n, config: conf(p, "1.0.0") },
            ],
          ),
          // v1.1.1 (Debian) differs: it checks the ID and ifname after the scan and the config, so a missing variable or a bad config wins; SPEC ENV-3 (§1.11 step 1) follows upstream main
          [
            `${cmd} bad ID and bad JSON`,
            { plugin: p, command: cmd, containerID: "a b", config: () => "{" },
            {
              reference: {
                exit: 1,
                error: { code: 6, msg: "error unmarshall network config: unexpected end of JSON input" },
              },
              ours: badID,
            },
          ],
          [
            `${cmd} bad ID and no CNI_PATH`,
            { plugin: p, command: cmd, containerID: "a b", path: null, config: conf(p, "1.0.0") },
            {
              reference: { exit: 1, error: { code: 4, msg: "required env variables [CNI_PATH] missing" } },
              ours: badID,
            },
          ],
          [
            `${cmd} bad ifname and bad name`,
            { plugin: p, command: cmd, ifName: "eth:0", config: () => '{"name":"a b"}' },
            {
              reference: {
                exit: 1,
                error: { code: 7, msg: "invalid characters found in network name", details: "a b" },
              },
              ours: badIfname,
            },
          ],
        ]),
      );
    },
    TIMEOUT_MS,
  );

  test(
    "for stdin that is not a valid config (§1.11 step 4, VAL-1, VN-4, VN-6)",
    async () => {
      const stdins = [
        "",
        " ",
        "{",
        "garbage",
        "null",
        "[]",
        '"x"',
        "5",
        "{}",
        '{"name":5}',
        '{"name":""}',
        '{"name":"bad name"}',
        '{"name":"-x"}',
        '{"name":"n","cniVersion":5}',
        '{"name":"n","cniVersion":"9.9.9"}',
        '{"name":"n","cniVersion":"0.1"}',
        '{"name":"n","cniVersion":"x.y"}',
        '{"name":"n","cniVersion":"1.0.0-rc1"}',
        '{"name":"n","cniVersion":"1.0.0.0"}',
        '{"name":"n","a":1,}',
        '{"name":"n"} x',
        "\ufeff{}",
      ];
      await perPlugin((p) =>
        ["ADD", "DEL", "CHECK"].flatMap((cmd) =>
          stdins.map((raw): [string, Req] => [
            `${cmd} stdin ${JSON.stringify(raw)}`,
            { plugin: p, command: cmd, config: () => raw },
          ]),
        ),
      );
    },
    TIMEOUT_MS,
  );

  test(
    "for version gates of CHECK at every version below 0.4.0 (CHK-9), and ADD/DEL at every version",
    async () => {
      await perPlugin((p) => [
        ...["0.1.0", "0.2.0", "0.3.0", "0.3.1", undefined].map((v): [string, Req] => [
          `CHECK at ${v ?? "no version"}`,
          { plugin: p, command: "CHECK", config: conf(p, v) },
        ]),
        ...["0.3.1", "0.4.0", "1.0.0"].map((v): [string, Req] => [
          `CHECK at ${v} without prevResult`,
          { plugin: p, command: "CHECK", config: conf(p, v) },
        ]),
        // loopback's ADD below 1.0.0 is in the next test (LO-2).
        ...["0.2.0", "0.3.1", "0.4.0", "1.0.0"].flatMap((v): [string, Req][] => [
          ...(p === "loopback" && v !== "1.0.0"
            ? []
            : [[`ADD at ${v}`, { plugin: p, command: "ADD", config: conf(p, v) }] as [string, Req]]),
          [`DEL at ${v}`, { plugin: p, command: "DEL", config: conf(p, v) }],
        ]),
      ]);
    },
    TIMEOUT_MS,
  );

  test(
    "loopback's result below 1.0.0 is properly converted, where the reference keeps 1.x fields (LO-2 quirk)",
    async () => {
      for (const v of ["0.2.0", "0.3.1", "0.4.0"]) {
        const a = await twin.call({
          plugin: "loopback",
          command: "ADD",
          containerID: "lo-v",
          ifName: "lo",
          config: conf("loopback", v),
        });
        const lo = { name: "lo", mac: "00:00:00:00:00:00", sandbox: "<c0>" };
        expect(a.reference.result).toMatchObject({
          cniVersion: v,
          interfaces: [lo],
          ips: [
            { address: "127.0.0.1/8", interface: 0 },
            { address: "::1/128", interface: 0 },
          ],
        });
        if (v === "0.2.0") {
          expect(a.ours.result).toEqual({
            cniVersion: "0.2.0",
            ip4: { ip: "127.0.0.1/8" },
            ip6: { ip: "::1/128" },
            dns: {},
          });
        } else {
          expect(a.ours.result).toEqual({
            cniVersion: v,
            interfaces: [lo],
            ips: [
              { version: "4", address: "127.0.0.1/8", interface: 0 },
              { version: "6", address: "::1/128", interface: 0 },
            ],
            dns: {},
          });
        }
      }
    },
    TIMEOUT_MS,
  );

  test(
    "for unknown commands, checked after the config (§1.11 step 5), with no container ID or ifname required (ENV-3)",
    async () => {
      const unknown: Answer = { exit: 1, error: { code: 4, msg: "unknown CNI_COMMAND: FOO" } };
      await perPlugin((p) => [
        ["FOO", { plugin: p, command: "FOO", config: conf(p, "1.0.0") }],
        ["add (lower case)", { plugin: p, command: "add", config: conf(p, "1.0.0") }],
        [
          "FOO with only CNI_COMMAND and a bad stdin",
          {
            plugin: p,
            command: "FOO",
            containerID: null,
            netns: null,
            ifName: null,
            path: null,
            config: () => "garbage",
          },
        ],
        // v1.1.1 (Debian) differs: it checks the container ID and ifname for every command but VERSION (code 3 `missing containerID` when unset); SPEC ENV-3 follows upstream main
        [
          "FOO with only CNI_COMMAND",
          {
            plugin: p,
            command: "FOO",
            containerID: null,
            netns: null,
            ifName: null,
            path: null,
            config: conf(p, "1.0.0"),
          },
          {
            reference: { exit: 1, error: { code: 3, msg: "missing containerID" } },
            ours: unknown,
          },
        ],
        // v1.1.1 (Debian) differs: it reports the empty ifname; SPEC ENV-3 follows upstream main
        [
          "FOO with an empty ifname",
          { plugin: p, command: "FOO", ifName: "", config: conf(p, "1.0.0") },
          {
            reference: { exit: 1, error: { code: 4, msg: "interface name is empty" } },
            ours: unknown,
          },
        ],
      ]);
    },
    TIMEOUT_MS,
  );

  test(
    "for CNI_ARGS: unknown keys, IgnoreUnknown, malformed pairs, K8S_* keys (CA-3, CA-5, CA-6)",
    async () => {
      const args = [
        "FOO=bar",
        "IgnoreUnknown=1;FOO=bar",
        "FOO=bar;IgnoreUnknown=true",
        "IgnoreUnknown=TRUE;FOO=bar",
        "IgnoreUnknown=yes",
        "IgnoreUnknown=0;FOO=x",
        "ignoreunknown=1;FOO=x",
        "A",
        "A=b=c",
        "IP=198.18.70.9;",
        ";",
        "=x",
        "K8S_POD_NAME=p",
        "IgnoreUnknown=1;K8S_POD_NAMESPACE=ns;K8S_POD_NAME=p;K8S_POD_INFRA_CONTAINER_ID=x;K8S_POD_UID=u",
      ];
      // v1.1.1 (Debian) differs: code 999 for a bad CNI_ARGS; SPEC §4.2 gives code 4 (invalid environment variables)
      await perPlugin((p) =>
        ["ADD", "DEL", "CHECK"].flatMap((cmd) =>
          args.map(
            (a): Case => [
              `${cmd} CNI_ARGS ${a}`,
              { plugin: p, command: cmd, args: a, config: conf(p, "1.0.0") },
              ARGS_CODE,
            ],
          ),
        ),
      );
    },
    TIMEOUT_MS,
  );

  test(
    "for CNI_ARGS IP= requests of host-local and MAC= of bridge (CA-1, CA-2, §8.1, §8.3)",
    async () => {
      // v1.1.1 (Debian) differs: code 999 for a bad CNI_ARGS or config; SPEC §4.2 gives code 4 or 7 (the fifth item)
      const cases: [string, Plugin, string, Record<string, unknown>?, KnownDifference?][] = [
        ["IP= (empty)", "host-local", "IP="],
        ["IP=bad", "host-local", "IP=bad", {}, ARGS_CODE],
        ["IP in range", "host-local", "IP=198.18.72.77"],
        ["IP with a prefix", "host-local", "IP=198.18.72.78/24"],
        ["IP outside every range", "host-local", "IP=198.18.99.9"],
        ["IP = the gateway", "host-local", "IP=198.18.72.1"],
        ["IP of the other family", "host-local", "IP=2001:db8::1"],
        // Merged (CA-2). Two requests in one range set would be a coin toss: the reference
        // takes them from a Go map, in random order.
        ["IP and args.cni.ips merged", "host-local", "IP=198.18.72.60", { args: { cni: { ips: ["198.18.99.61"] } } }],
        ["args.cni.ips bad", "host-local", "", { args: { cni: { ips: ["nope"] } } }, CONFIG_CODE],
        ["args.cni.ips wrong type", "host-local", "", { args: { cni: { ips: "198.18.72.50" } } }, CONFIG_CODE],
        ["args wrong type", "host-local", "", { args: 5 }, CONFIG_CODE],
        ["runtimeConfig.ips", "host-local", "", { runtimeConfig: { ips: ["198.18.72.52/24"] } }],
        ["IP to bridge", "bridge", "IP=198.18.70.9", {}, ARGS_CODE],
        ["IP to ptp", "ptp", "IP=198.18.71.9"],
        ["MAC to bridge", "bridge", "MAC=c2:11:22:33:44:55", {}, ARGS_CODE],
        // ADD refuses the MAC (a config error), DEL the unknown key (CA-6).
        ["MAC=zz to bridge", "bridge", "MAC=zz", {}, ARGS_OR_CONFIG_CODE],
        ["MAC to ptp", "ptp", "MAC=c2:11:22:33:44:55", {}, ARGS_CODE],
        ["args.cni.mac to bridge", "bridge", "", { args: { cni: { mac: "c2:11:22:33:44:66" } } }],
        [
          "runtimeConfig.mac over args.cni.mac",
          "bridge",
          "",
          { args: { cni: { mac: "c2:11:22:33:44:66" } }, runtimeConfig: { mac: "c2:11:22:33:44:77" } },
        ],
        ["args wrong type to bridge", "bridge", "", { args: 5 }, CONFIG_CODE],
      ];
      await perPlugin((p) =>
        cases
          .filter((c) => c[1] === p)
          .flatMap(([label, , a, extra, known]): Case[] => [
            [
              `ADD ${label}`,
              { plugin: p, command: "ADD", args: a, config: conf(p, "1.0.0", extra) },
              known ?? (() => undefined),
            ],
            [
              `DEL ${label}`,
              { plugin: p, command: "DEL", args: a, config: conf(p, "1.0.0", extra) },
              known ?? (() => undefined),
            ],
          ]),
      );
    },
    TIMEOUT_MS,
  );

  test(
    "VERSION ignores stdin; ours names 1.1.0, which we support and the reference v1.1 does not (VER-3)",
    async () => {
      for (const p of PLUGINS) {
        for (const stdin of ["", "garbage", '{"cniVersion":"0.1.0"}']) {
          const a = await twin.call({
            plugin: p,
            command: "VERSION",
            containerID: null,
            netns: null,
            ifName: null,
            path: null,
            config: () => stdin,
          });
          const ref = a.reference.result as { cniVersion: string; supportedVersions: string[] };
          expect(ref.cniVersion).toBe("1.0.0");
          expect(a.ours.result).toEqual({
            cniVersion: "1.1.0",
            supportedVersions: [...ref.supportedVersions, "1.1.0"],
          });
        }
      }
    },
    TIMEOUT_MS,
  );

  test(
    "spec 1.1.0 configs, GC and STATUS are ours alone: the reference v1.1 refuses them (README: host-local has GC and STATUS)",
    async () => {
      for (const p of PLUGINS) {
        const at11 = await twin.call({
          plugin: p,
          command: "DEL",
          containerID: "v11",
          ifName: p === "loopback" ? "lo" : "e0",
          config: conf(p, "1.1.0"),
        });
        expect(at11.reference.error).toMatchObject({ code: 1, msg: "incompatible CNI versions" });
        expect(at11.ours.exit).toBe(0);
        for (const cmd of ["GC", "STATUS"]) {
          const old = await twin.call({ plugin: p, command: cmd, config: conf(p, "1.0.0") });
          expect(old.reference.error).toEqual({ code: 4, msg: `unknown CNI_COMMAND: ${cmd}` });
          // GC-10, ST-6: below 1.1.0 the command is not allowed.
          expect(old.ours.error).toEqual({ code: 1, msg: `config version does not allow ${cmd}` });
          const now = await twin.call({
            plugin: p,
            command: cmd,
            containerID: null,
            netns: null,
            ifName: null,
            config: conf(p, "1.1.0"),
          });
          expect(now.reference.error).toEqual({ code: 3, msg: "missing containerID" });
          expect(now.ours.exit).toBe(0);
        }
      }
    },
    TIMEOUT_MS,
  );

  test(
    "ADD and CHECK into the plugin's own namespace: code 8 from us, checked first; DEL succeeds as the reference's; CNI_NETNS_OVERRIDE lifts it (P-7, §1.11 step 7 [DIFF])",
    async () => {
      // The reference v1.1 predates the check and configures the host's `lo` as asked.
      for (const cmd of ["ADD", "CHECK", "DEL"]) {
        const a = await twin.call({
          plugin: "loopback",
          command: cmd,
          containerID: "own",
          ifName: "lo",
          netns: "host",
          config: conf("loopback", "1.0.0"),
        });
        if (cmd !== "CHECK") expect(a.reference.exit).toBe(0);
        // DEL is tolerant (DEL-2) but touches nothing in the own namespace: exit 0, no error.
        if (cmd === "DEL") expect(a.ours.exit).toBe(0);
        else
          expect(a.ours.error).toEqual({
            code: 8,
            msg: "plugin's netns and netns from CNI_NETNS should not be the same",
          });
        if (cmd === "CHECK") continue;
        for (const override of ["1", "true", "TRUE"]) {
          await expectSame(twin, `${cmd} with CNI_NETNS_OVERRIDE=${override}`, {
            plugin: "loopback",
            command: cmd,
            containerID: "own",
            ifName: "lo",
            netns: "host",
            env: { CNI_NETNS_OVERRIDE: override },
            config: conf("loopback", "1.0.0"),
          });
        }
      }
      const bridge = await twin.call({
        plugin: "bridge",
        command: "ADD",
        containerID: "own",
        ifName: "eown",
        netns: "host",
        config: conf("bridge", "1.0.0"),
      });
      expect(bridge.ours.error?.code).toBe(8);
      await twin.call({
        plugin: "bridge",
        command: "DEL",
        containerID: "own",
        ifName: "eown",
        netns: "host",
        env: { CNI_NETNS_OVERRIDE: "1" },
        config: conf("bridge", "1.0.0"),
      });
    },
    TIMEOUT_MS,
  );

  test(
    "an empty CNI_COMMAND prints the about text on stderr and exits 0 on both",
    async () => {
      for (const p of PLUGINS) {
        const [ref, ours] = await Promise.all(
          (["reference", "ours"] as const).map((side) =>
            twin.callSide(twin.sides[side], { plugin: p, command: null, config: () => "" }),
          ),
        );
        expect([ref!.exit, ours!.exit, ref!.raw, ours!.raw]).toEqual([0, 0, "", ""]);
        expect(ours!.stderr).toContain(
          "CNI protocol versions supported: 0.1.0, 0.2.0, 0.3.0, 0.3.1, 0.4.0, 1.0.0, 1.1.0",
        );
        expect(ref!.stderr).toContain("CNI protocol versions supported: 0.1.0, 0.2.0, 0.3.0, 0.3.1, 0.4.0, 1.0.0");
      }
    },
    TIMEOUT_MS,
  );

  test(
    "a resolvConf that cannot be read fails alike (§8.3)",
    async () => {
      for (const path of ["/nonexistent/resolv.conf", "/"]) {
        const config = (s: SideCtx) => ({
          ...conf("host-local", "1.0.0")(s),
          ipam: { type: "host-local", subnet: "198.18.73.0/24", resolvConf: path, dataDir: s.dataDir },
        });
        const a = await twin.call({ plugin: "host-local", command: "ADD", containerID: "rc", ifName: "e0", config });
        expect(comparableAnswer(a.ours)).toEqual(comparableAnswer(a.reference));
      }
    },
    TIMEOUT_MS,
  );
});
