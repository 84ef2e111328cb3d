/**
 * CNI_ARGS for the `config` target's plugin decoders (issue 15): the decoders that read it
 * (host-local and static `IP=`, static `GATEWAY=`, bridge, macvlan, tap and tuning `MAC=`)
 * get valid `K=V;K=V` sets built from the keys plugins and runtimes use, values that are
 * right, near and wrong, and garbage around the separators (§6.4, CA-1 to CA-6).
 */
import fc from "fast-check";
import { hostileString } from "./json.ts";

/** Keys of CNI_ARGS: what plugins read, what runtimes send, their case variants and junk. */
const argKey: fc.Arbitrary<string> = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      "IP",
      "MAC",
      "GATEWAY",
      "IgnoreUnknown",
      "K8S_POD_NAME",
      "K8S_POD_NAMESPACE",
      "K8S_POD_INFRA_CONTAINER_ID",
      "K8S_POD_UID",
    ),
    weight: 8,
  },
  { arbitrary: fc.constantFrom("ip", "Mac", "IGNOREUNKNOWN", "FOO", "", " IP", "IP "), weight: 2 },
  { arbitrary: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/), weight: 1 },
);

/** Only parsed, never configured; still from the test range (198.18.0.0/15). */
const ipv4 = fc
  .tuple(fc.integer({ min: 18, max: 19 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }))
  .map(([b, c, d]) => `198.${b}.${c}.${d}`);
const ipv6 = fc.constantFrom("2001:db8::7", "2001:db8:3::7", "::", "::1", "fe80::1");

/** IP= and GATEWAY= values: one address or a comma list, with or without a prefix, and near misses. */
const ipValue: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.array(fc.oneof(ipv4, ipv6), { minLength: 1, maxLength: 3 }).map((a) => a.join(",")), weight: 4 },
  {
    arbitrary: fc.tuple(fc.oneof(ipv4, ipv6), fc.integer({ min: -1, max: 129 })).map(([a, p]) => `${a}/${p}`),
    weight: 2,
  },
  {
    arbitrary: fc.constantFrom(
      "198.18.0.256",
      "198.18.0",
      "1.2.3.4/",
      "/24",
      ",",
      "198.18.0.1,",
      "2001:db8:::1",
      "0x7f.0.0.1",
    ),
    weight: 2,
  },
);

/** MAC= values: valid (unicast, multicast, upper case), the other forms Go's ParseMAC takes, and junk. */
const macValue: fc.Arbitrary<string> = fc.oneof(
  {
    arbitrary: fc
      .array(fc.integer({ min: 0, max: 255 }), { minLength: 6, maxLength: 6 })
      .map((b) => b.map((x) => x.toString(16).padStart(2, "0")).join(":")),
    weight: 3,
  },
  {
    arbitrary: fc.constantFrom(
      "02:00:00:00:00:09",
      "02-00-00-00-00-09",
      "0200.0000.0009",
      "02:00:00:00:00:00:00:09",
      "02:00:00:00:00",
      "zz:00:00:00:00:09",
      "ff:ff:ff:ff:ff:ff",
      "00:00:00:00:00:00",
    ),
    weight: 2,
  },
);

/** Any value: by key where it matters, else bools, pod names and hostile text. */
const argValue = (key: string): fc.Arbitrary<string> =>
  fc.oneof(
    {
      arbitrary: key === "IP" || key === "GATEWAY" ? ipValue : key === "MAC" ? macValue : fc.constant("pod-0"),
      weight: 6,
    },
    { arbitrary: fc.constantFrom("1", "true", "TRUE", "0", "false", "yes", ""), weight: 2 },
    { arbitrary: hostileString.map((s) => s.slice(0, 200)), weight: 1 },
  );

const pair: fc.Arbitrary<string> = argKey.chain((k) => argValue(k).map((v) => `${k}=${v}`));

/** The pairs a plugin reads, each at most once, in any order. */
const pluginPairs: fc.Arbitrary<string[]> = fc
  .record({ IP: ipValue, MAC: macValue, GATEWAY: ipValue }, { requiredKeys: [] })
  .chain((r) =>
    fc.shuffledSubarray(
      Object.entries(r).map(([k, v]) => `${k}=${v}`),
      { minLength: Object.keys(r).length },
    ),
  );

/** What a runtime sends (IgnoreUnknown and the pod's identity), plus what the plugin reads. */
const runtimeArgs: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom("1", "true", "True"), pluginPairs)
  .map(([ignore, own]) =>
    [
      `IgnoreUnknown=${ignore}`,
      "K8S_POD_NAMESPACE=ns",
      "K8S_POD_NAME=pod-0",
      "K8S_POD_INFRA_CONTAINER_ID=c0",
      ...own,
    ].join(";"),
  );

/** CNI_ARGS: empty, a runtime's, a plugin's own keys alone, random pairs, malformed and hostile. */
export const configCniArgs: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constant(""), weight: 3 },
  { arbitrary: runtimeArgs, weight: 5 },
  { arbitrary: pluginPairs.map((p) => p.join(";")), weight: 3 },
  { arbitrary: fc.array(pair, { minLength: 1, maxLength: 5 }).map((p) => p.join(";")), weight: 3 },
  {
    arbitrary: fc
      .tuple(fc.array(pair, { maxLength: 3 }), fc.constantFrom("a", "=x", "a==b", ";;", "", "IP", "MAC=", "=", ";"))
      .map(([p, junk]) => [...p, junk].join(";")),
    weight: 2,
  },
  { arbitrary: hostileString.map((s) => s.slice(0, 500)), weight: 1 },
  // Long but valid: the parse must stay linear (a case over SLOW_MS is a failure).
  {
    arbitrary: fc.integer({ min: 1000, max: 5000 }).map((n) => `IgnoreUnknown=1;${"K=V;".repeat(n)}IP=198.18.0.9`),
    weight: 1,
  },
);
