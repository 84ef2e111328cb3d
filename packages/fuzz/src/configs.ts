/**
 * Network configs and lists for fuzzing (issue 15): valid ones of every plugin we carry,
 * near-valid ones (one field of a valid config replaced by hostile JSON, or a key's case
 * changed), and hostile ones (any JSON with the fields of a config as keys).
 */
import fc from "fast-check";
import { VERSIONS } from "@tscni/spec";
import { corpusDocument } from "./corpus.ts";
import { anyLeaf, deepNesting, hostileNumber, hostileString, jsonText, quote } from "./json.ts";
import { PLUGIN_FIELDS, typedPluginConfig } from "./plugin-fields.ts";

/** Plugin types whose configs we generate, with their own keys. */
const PLUGIN_KEYS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(PLUGIN_FIELDS).map(([type, fields]) => [type, Object.keys(fields)]),
);

/** Keys a config object can have: the common ones (§2.2), each plugin's, and junk. */
export const configKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "cniVersion",
    "cniVersions",
    "name",
    "type",
    "plugins",
    "ipam",
    "dns",
    "args",
    "prevResult",
    "runtimeConfig",
    "capabilities",
    "disableCheck",
    "disableGC",
    "loadOnlyInlinedPlugins",
    "subnet",
    "gateway",
    "rangeStart",
    "rangeEnd",
  ),
  fc.constantFrom(...Object.values(PLUGIN_KEYS).flat()),
  fc.constantFrom("__proto__", "constructor", "CNIVERSION", "Type", "nAmE"),
  hostileString,
);

/** Version strings: every known one, near misses and junk. */
export const cniVersion: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...VERSIONS), weight: 4 },
  {
    arbitrary: fc.constantFrom(
      "",
      "1.0",
      "1.0.0.0",
      "v1.0.0",
      "01.0.0",
      "1.1.0-rc1",
      "99.0.0",
      "0.3",
      " 1.0.0",
      "1.0.0 ",
    ),
    weight: 2,
  },
  { arbitrary: hostileString, weight: 1 },
);

const subnet4 = fc
  .tuple(fc.nat(255), fc.nat(255), fc.integer({ min: 8, max: 30 }))
  .map(([a, b, p]) => `198.${18 + (a % 2)}.${b}.0/${p < 16 ? 16 : p}`);

/** A valid plugin config object of one of our plugins, as JSON text. */
export const validPluginConfig: fc.Arbitrary<string> = fc
  .record({
    version: fc.constantFrom(...VERSIONS),
    type: fc.constantFrom(...Object.keys(PLUGIN_KEYS)),
    name: fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
    subnet: subnet4,
    mtu: fc.integer({ min: 576, max: 9000 }),
    flag: fc.boolean(),
  })
  .map(({ version, type, name, subnet, mtu, flag }) => {
    const conf: Record<string, unknown> = { cniVersion: version, name, type };
    if (type === "bridge" || type === "ptp")
      Object.assign(conf, { mtu, ipMasq: flag, ipam: { type: "host-local", ranges: [[{ subnet }]] } });
    if (type === "bridge") Object.assign(conf, { bridge: "cni0", isGateway: flag });
    if (type === "portmap") Object.assign(conf, { capabilities: { portMappings: true }, snat: flag });
    return JSON.stringify(conf);
  });

/** A valid list of one to three plugin configs. */
export const validConfList: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...VERSIONS),
    fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
    fc.array(validPluginConfig, { minLength: 1, maxLength: 3 }),
  )
  .map(([v, name, plugins]) =>
    JSON.stringify({ cniVersion: v, name, plugins: plugins.map((p) => JSON.parse(p) as unknown) }),
  );

/** A config of any plugin with typed values in its own fields, alone or in a list. */
export const typedConfigDocument: fc.Arbitrary<string> = fc.oneof(
  typedPluginConfig.map((c) => JSON.stringify(c)),
  fc
    .tuple(fc.constantFrom(...VERSIONS), fc.array(typedPluginConfig, { minLength: 1, maxLength: 3 }))
    .map(([cniVersion, plugins]) => JSON.stringify({ cniVersion, name: "fuzz", plugins })),
);

/** A valid config with one field set to hostile JSON (or removed, or its key's case changed). */
export const nearValidConfig: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(validPluginConfig, validConfList, typedConfigDocument, corpusDocument),
    configKey,
    fc.oneof(anyLeaf, jsonText(anyLeaf, configKey, 2)),
    fc.nat(4),
    fc.nat(),
  )
  .map(([text, key, value, how, pick]) => {
    const obj = JSON.parse(text) as Record<string, unknown>;
    // First: a duplicate key the original value overrides; last: one that overrides it.
    if (how === 0) return text.replace(/^\{/, `{${quote(key)}:${value},`);
    if (how === 3) return text.replace(/\}$/, `,${quote(key)}:${value}}`);
    if (how === 1) {
      delete obj[key];
      return JSON.stringify(obj);
    }
    if (how === 4) {
      // Inside a nested object (ipam, a list's plugin, prevResult, runtimeConfig...).
      const nested = objectsIn(obj);
      const target = nested[pick % nested.length] ?? obj;
      target[key] = JSON.parse(value) as unknown;
      return JSON.stringify(obj);
    }
    const [first] = Object.keys(obj);
    return first === undefined ? text : text.replace(quote(first), quote(first.toUpperCase()));
  });

/** Every object in a JSON value, the value itself first. */
function objectsIn(value: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) for (const x of value) objectsIn(x, out);
  else if (typeof value === "object" && value !== null) {
    out.push(value as Record<string, unknown>);
    for (const x of Object.values(value)) objectsIn(x, out);
  }
  return out;
}

/** Any JSON whose keys are mostly config keys: wrong types at every level. */
export const hostileConfig: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: jsonText(fc.oneof(anyLeaf, hostileNumber, cniVersion.map(quote)), configKey, 4), weight: 8 },
  { arbitrary: deepNesting, weight: 1 },
);

/** Config documents: valid, near-valid and hostile, as JSON text. */
export const configDocument: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: validPluginConfig, weight: 2 },
  { arbitrary: validConfList, weight: 2 },
  { arbitrary: typedConfigDocument, weight: 3 },
  { arbitrary: corpusDocument, weight: 1 },
  { arbitrary: nearValidConfig, weight: 4 },
  { arbitrary: hostileConfig, weight: 3 },
);
