import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { CniError, ErrorCode, VERSIONS, compareVersions } from "@tscni/spec";
import { checkConfList, parseConfList } from "./conf-list.ts";
import { checkPluginConf, parsePluginConf } from "./plugin-conf.ts";
import type { NetworkConfig, NetworkConfigList } from "./types.ts";

const RUNS = { numRuns: 10_000 };

/** Runs `parse` and returns the value or the CniError; any other exception escapes and fails the property. */
function outcome<T>(parse: () => T): T | CniError {
  try {
    return parse();
  } catch (err) {
    if (err instanceof CniError) return err;
    throw err;
  }
}

function expectTypedList(got: NetworkConfigList | CniError): void {
  if (got instanceof CniError) {
    expect<number[]>([ErrorCode.DecodingFailure, ErrorCode.InvalidNetworkConfig]).toContain(got.code);
    return;
  }
  expect(typeof got.name).toBe("string");
  expect(typeof got.cniVersion).toBe("string");
  for (const flag of [got.disableCheck, got.disableGC, got.loadOnlyInlinedPlugins]) expect(typeof flag).toBe("boolean");
  for (const p of got.plugins) expectTypedPlugin(p);
}

function expectTypedPlugin(got: NetworkConfig | CniError): void {
  if (got instanceof CniError) {
    expect<number[]>([ErrorCode.DecodingFailure, ErrorCode.InvalidNetworkConfig]).toContain(got.code);
    return;
  }
  expect(typeof got.network.type).toBe("string");
  expect(got.network.type.length).toBeGreaterThan(0);
  expect(got.bytes).toBeInstanceOf(Uint8Array);
}

/** A value of any JSON type, biased towards the ones the parser cares about. */
const anyField = fc.oneof(
  fc.string(),
  fc.constantFrom("true", "FALSE", "True", "", "bridge", ...VERSIONS, "2.0.0", "1.0.0-rc1", "x.y", "1.2.3.4"),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string(), fc.constantFrom(...VERSIONS), fc.integer(), fc.constant(null)), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.boolean(), fc.string(), fc.constant(null)), { maxKeys: 3 }),
);

/** Known plugin keys in odd spellings too (Go matches them case-insensitively). */
const pluginKey = fc.constantFrom(
  "type",
  "Type",
  "TYPE",
  "name",
  "cniVersion",
  "capabilities",
  "ipam",
  "IPAM",
  "dns",
  "prevResult",
  "cni.dev/valid-attachments",
  "mtu",
  "__proto__",
);

/** Mostly `valid`, sometimes any JSON value: keeps both the success and the failure paths busy. */
const mostly = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: anyField, weight: 1 });

const pluginShaped = fc.oneof(
  fc.dictionary(
    pluginKey,
    fc.oneof(
      anyField,
      fc.record({ type: anyField }, { requiredKeys: [] }),
      fc.record({ nameservers: anyField, search: anyField }, { requiredKeys: [] }),
    ),
  ),
  fc.record(
    {
      type: mostly(fc.constantFrom("bridge", "portmap", "")),
      name: mostly(fc.string()),
      capabilities: mostly(fc.dictionary(fc.string({ maxLength: 6 }), fc.boolean(), { maxKeys: 2 })),
      ipam: mostly(fc.record({ type: fc.constantFrom("host-local") })),
    },
    { requiredKeys: [] },
  ),
  anyField,
);

const validFlag = fc.oneof(fc.boolean(), fc.constantFrom("true", "FALSE", "True"));

const listShaped = fc.record(
  {
    name: mostly(fc.constantFrom("net", "", "a/b")),
    cniVersion: mostly(fc.constantFrom(...VERSIONS, "9.9.9", "")),
    cniVersions: mostly(fc.array(fc.constantFrom(...VERSIONS, "2.0.0", "1.0", "0.10.0"), { maxLength: 5 })),
    disableCheck: mostly(validFlag),
    disableGC: mostly(validFlag),
    loadOnlyInlinedPlugins: mostly(validFlag),
    plugins: mostly(fc.array(pluginShaped, { minLength: 1, maxLength: 3 })),
    extra: anyField,
  },
  { requiredKeys: ["name"] },
);

describe("parsing never throws anything but a CniError", () => {
  test("arbitrary bytes give a typed value or a CniError", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        expectTypedList(outcome(() => parseConfList(bytes, "/f.conflist")));
        expectTypedPlugin(outcome(() => parsePluginConf(bytes, "/f.conf")));
      }),
      RUNS,
    );
  });

  test("arbitrary strings give a typed value or a CniError", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
        expectTypedList(outcome(() => parseConfList(text)));
        expectTypedPlugin(outcome(() => parsePluginConf(text)));
      }),
      RUNS,
    );
  });

  test("arbitrary JSON documents give a typed value or a CniError", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (doc) => {
        const text = JSON.stringify(doc);
        expectTypedList(outcome(() => parseConfList(text)));
        expectTypedPlugin(outcome(() => parsePluginConf(text)));
      }),
      RUNS,
    );
  });

  test("config-shaped objects with random field types give a typed value or a CniError", () => {
    fc.assert(
      fc.property(listShaped, (doc) => {
        expectTypedList(outcome(() => parseConfList(JSON.stringify(doc))));
      }),
      RUNS,
    );
  });

  test("plugin-shaped objects with random field types give a typed value or a CniError", () => {
    fc.assert(
      fc.property(pluginShaped, (doc) => {
        expectTypedPlugin(outcome(() => parsePluginConf(JSON.stringify(doc))));
      }),
      RUNS,
    );
  });
});

describe("the thrown error is the first of the problems check* reports", () => {
  test("for lists: parse succeeds exactly when there are no problems, else throws the first", () => {
    fc.assert(
      fc.property(listShaped, (doc) => {
        const text = JSON.stringify(doc);
        const issues = checkConfList(text);
        const got = outcome(() => parseConfList(text));
        if (issues.length === 0) expect(got).not.toBeInstanceOf(CniError);
        else expect((got as CniError).message).toEndWith(issues[0]?.message ?? "?");
      }),
      RUNS,
    );
  });

  test("for plugin objects: the same", () => {
    fc.assert(
      fc.property(pluginShaped, (doc) => {
        const text = JSON.stringify(doc);
        const issues = checkPluginConf(text);
        const got = outcome(() => parsePluginConf(text));
        if (issues.length === 0) expect(got).not.toBeInstanceOf(CniError);
        else expect((got as CniError).message).toEndWith(issues[0]?.message ?? "?");
      }),
      RUNS,
    );
  });
});

describe("cniVersions selection (VN-2)", () => {
  test("the effective version is the highest known version among cniVersion and cniVersions", () => {
    const known = fc.constantFrom(...VERSIONS);
    fc.assert(
      fc.property(
        fc.option(known, { nil: undefined }),
        fc.array(fc.oneof(known, fc.constantFrom("2.0.0", "1.2.0")), { maxLength: 6 }),
        (v, vs) => {
          const doc = {
            name: "n",
            plugins: [{ type: "x" }],
            cniVersions: vs,
            ...(v !== undefined ? { cniVersion: v } : {}),
          };
          const got = parseConfList(JSON.stringify(doc)).cniVersion;
          const candidates = [...vs, ...(v !== undefined ? [v] : [])].filter((c) => compareVersions(c, "1.1.0") <= 0);
          if (candidates.length === 0) expect(got).toBe(v ?? "");
          else for (const c of candidates) expect(compareVersions(got, c)).toBeGreaterThanOrEqual(0);
        },
      ),
      RUNS,
    );
  });
});
