/**
 * CNI env sets for the exec protocol (issue 15, §1.1): each CNI_* variable valid, missing,
 * empty or hostile. Values that depend on the run (the container namespace, the plugin
 * directory, the temp dir) are tokens the sandbox replaces when it runs the case, so a
 * saved case replays in fresh namespaces.
 */
import fc from "fast-check";

/** Replaced by the path of the run's container namespace. */
export const NETNS_TOKEN = "@NETNS@";
/** Replaced by the plugin directory (CNI_PATH). */
export const DIR_TOKEN = "@DIR@";
/** Replaced by the run's temp dir (host-local's dataDir and other files live there). */
export const TMP_TOKEN = "@TMP@";
/** An interface name the sandbox pre-creates in the container (chained plugins adjust it). */
export const CHAINED_IFNAME = "net9";

/** An env set: a missing variable is an absent key (libcni sets all six, P-8; we also test less). */
export type EnvSet = Record<string, string>;

/** Commands: the six the spec knows (ENV-5), weighted to ADD, plus missing and garbage. */
export const cniCommand: fc.Arbitrary<string | undefined> = fc.oneof(
  { arbitrary: fc.constant("ADD"), weight: 10 },
  { arbitrary: fc.constant("DEL"), weight: 3 },
  { arbitrary: fc.constant("CHECK"), weight: 2 },
  { arbitrary: fc.constantFrom("VERSION", "GC", "STATUS"), weight: 3 },
  { arbitrary: fc.constant(undefined), weight: 1 },
  { arbitrary: fc.constantFrom("", "add", "ADD ", "XYZ", "VERSION\n", "DEL;ADD", "../ADD", "ÄDD"), weight: 1 },
);

/** Odd characters a runtime should never send but a plugin must survive (no NUL: exec cannot carry it). */
const ODD = ["a b", "a\tb", "ü", "-x", ".", "a;b", "$(id)", "a\nb", "*", "'\"", "%s%n", "\u202e"];

/** CNI_CONTAINERID: valid, missing, empty, overlong, path-traversing, odd characters. */
export const containerId: fc.Arbitrary<string | undefined> = fc.oneof(
  { arbitrary: fc.stringMatching(/^[a-f0-9]{12,64}$/), weight: 8 },
  { arbitrary: fc.stringMatching(/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,30}$/), weight: 2 },
  { arbitrary: fc.constant(undefined), weight: 1 },
  { arbitrary: fc.constant(""), weight: 1 },
  { arbitrary: fc.integer({ min: 256, max: 5000 }).map((n) => "c".repeat(n)), weight: 1 },
  { arbitrary: fc.constantFrom("../..", "../../etc/passwd", "a/../../b", "/abs", "..", "a/b"), weight: 1 },
  { arbitrary: fc.constantFrom(...ODD), weight: 1 },
);

/** CNI_NETNS: the run's container namespace, missing, a nonexistent path, a regular file, the plugin's own. */
export const netns: fc.Arbitrary<string | undefined> = fc.oneof(
  { arbitrary: fc.constant(NETNS_TOKEN), weight: 12 },
  { arbitrary: fc.constant(undefined), weight: 1 },
  { arbitrary: fc.constant(""), weight: 1 },
  { arbitrary: fc.constant(`${TMP_TOKEN}/no-such-netns`), weight: 1 },
  { arbitrary: fc.constant(`${TMP_TOKEN}/regular-file`), weight: 1 },
  // The plugin's own namespace: the skel must refuse it (code 8, §1.11 step 7).
  { arbitrary: fc.constant("/proc/self/ns/net"), weight: 1 },
);

/** CNI_IFNAME: valid, missing, 16+ characters, `/`, `.`, `..`, spaces (§2.5). */
export const ifname: fc.Arbitrary<string | undefined> = fc.oneof(
  { arbitrary: fc.constantFrom("eth0", "net1", CHAINED_IFNAME), weight: 8 },
  { arbitrary: fc.stringMatching(/^[a-z][a-z0-9]{0,14}$/), weight: 2 },
  { arbitrary: fc.constant(undefined), weight: 1 },
  { arbitrary: fc.integer({ min: 16, max: 300 }).map((n) => "i".repeat(n)), weight: 1 },
  { arbitrary: fc.constantFrom("eth/0", ".", "..", "eth 0", " ", "", "eth0:1", "lo", "eth\n0"), weight: 2 },
);

/** CNI_ARGS: valid `K=V;...`, bad pairs, IgnoreUnknown, huge (§6.4). */
export const cniArgs: fc.Arbitrary<string | undefined> = fc.oneof(
  { arbitrary: fc.constant(""), weight: 6 },
  { arbitrary: fc.constant(undefined), weight: 1 },
  {
    arbitrary: fc.constantFrom(
      "IgnoreUnknown=1;K8S_POD_NAMESPACE=ns;K8S_POD_NAME=pod;K8S_POD_INFRA_CONTAINER_ID=abc",
      "IgnoreUnknown=true;FOO=bar",
      "IP=198.18.3.7",
      "IgnoreUnknown=1;IP=198.18.3.7,2001:db8:3::7",
      "IgnoreUnknown=1;MAC=02:00:00:00:00:09",
    ),
    weight: 3,
  },
  {
    arbitrary: fc.constantFrom("FOO=bar", "a", "=x", "a==b", ";;", "a=b;", "IgnoreUnknown=maybe;X=1", "IP=not-an-ip"),
    weight: 2,
  },
  {
    arbitrary: fc.integer({ min: 1000, max: 20_000 }).map((n) => `IgnoreUnknown=1;${"K=V;".repeat(n)}K=V`),
    weight: 1,
  },
);

const valid = (chained: boolean): Readonly<Record<string, fc.Arbitrary<string>>> => ({
  CNI_CONTAINERID: fc.stringMatching(/^[a-f0-9]{12,64}$/),
  CNI_NETNS: fc.constant(NETNS_TOKEN),
  // A chained plugin adjusts the interface the sandbox made; the others create their own.
  CNI_IFNAME: chained ? fc.constant(CHAINED_IFNAME) : fc.constantFrom("eth0", "net1"),
  CNI_ARGS: fc.constantFrom("", "", "IgnoreUnknown=1;K8S_POD_NAMESPACE=ns;K8S_POD_NAME=pod"),
});
/** Only the variants that are not a valid value: the one variable a case makes hostile. */
const HOSTILE: Readonly<Record<string, fc.Arbitrary<string | undefined>>> = {
  CNI_COMMAND: cniCommand.filter((v) => v === undefined || !["ADD", "DEL", "CHECK"].includes(v)),
  CNI_CONTAINERID: containerId.filter((v) => v === undefined || !/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,63}$/.test(v)),
  CNI_NETNS: netns.filter((v) => v !== NETNS_TOKEN),
  CNI_IFNAME: ifname.filter((v) => v === undefined || !/^[a-z][a-z0-9]{0,14}$/.test(v)),
  CNI_ARGS: cniArgs.filter((v) => v !== ""),
};

/**
 * A whole env set: a valid one (ADD-weighted command) with, half the time, one variable
 * drawn from its hostile generator (so most cases get past the skel and reach the plugin);
 * CNI_PATH is always the plugin directory (ENV-1).
 */
export const envSetFor = (chained: boolean): fc.Arbitrary<EnvSet> =>
  fc
    .record({
      command: fc.oneof(
        { arbitrary: fc.constant("ADD"), weight: 12 },
        { arbitrary: fc.constantFrom("DEL", "CHECK", "VERSION", "GC", "STATUS"), weight: 5 },
      ),
      valid: fc.record(valid(chained)),
      hostile: fc.option(
        fc
          .constantFrom(...Object.keys(HOSTILE))
          .chain((k) => (HOSTILE[k] ?? fc.constant(undefined)).map((v) => [k, v] as const)),
        { freq: 2, nil: undefined },
      ),
    })
    .map(({ command, valid, hostile }) => {
      const env: Record<string, string | undefined> = { CNI_COMMAND: command, ...valid };
      if (hostile !== undefined) env[hostile[0]] = hostile[1];
      const out: EnvSet = {};
      for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
      out.CNI_PATH = DIR_TOKEN;
      return out;
    });

/** An env set for a plugin that creates its interface. */
export const envSet: fc.Arbitrary<EnvSet> = envSetFor(false);

/** The values a token stands for in one run. */
export interface TokenValues {
  readonly netns: string;
  readonly dir: string;
  readonly tmp: string;
}

/** `text` with every token replaced by the run's value. */
export function fillTokens(text: string, v: TokenValues): string {
  return text.replaceAll(NETNS_TOKEN, v.netns).replaceAll(DIR_TOKEN, v.dir).replaceAll(TMP_TOKEN, v.tmp);
}
