/**
 * Stdin for one plugin (issue 15): a valid config of its type, a near-valid one (one field
 * replaced by hostile JSON, removed, or a junk key added), a hostile document with config
 * keys, a byte-mutated valid one, or nothing at all.
 */
import fc from "fast-check";
import { mutate, mutation } from "../bytes.ts";
import { hostileConfig } from "../configs.ts";
import { anyLeaf, jsonText, quote } from "../json.ts";
import { configKey } from "../configs.ts";
import { validConfig } from "./configs.ts";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** A valid config with one field replaced by hostile JSON, removed, or a junk key added. */
function nearValid(plugin: string): fc.Arbitrary<string> {
  return fc
    .tuple(validConfig(plugin), fc.nat(), fc.oneof(anyLeaf, jsonText(anyLeaf, configKey, 2)), fc.nat(2), configKey)
    .map(([conf, pick, value, how, junk]) => {
      const keys = Object.keys(conf);
      const key = keys[pick % keys.length] ?? "name";
      const text = JSON.stringify(conf);
      if (how === 0) {
        // Replace the value in place, so that what follows (and duplicates) stay as they were.
        const { [key]: _gone, ...rest } = conf;
        return `{${quote(key)}:${value}${Object.keys(rest).length === 0 ? "" : `,${JSON.stringify(rest).slice(1)}`}`;
      }
      if (how === 1) {
        const { [key]: _gone, ...rest } = conf;
        return JSON.stringify(rest);
      }
      return text.replace(/^\{/, `{${quote(junk)}:${value},`);
    });
}

/** Stdin bytes for `plugin`: valid, near-valid, hostile, byte-mutated or empty. */
export function pluginStdin(plugin: string): fc.Arbitrary<Uint8Array> {
  const valid = validConfig(plugin).map((c) => JSON.stringify(c));
  return fc.oneof(
    { arbitrary: valid.map(enc), weight: 12 },
    { arbitrary: nearValid(plugin).map(enc), weight: 4 },
    {
      arbitrary: hostileConfig.map((t) => enc(t.length > 300_000 ? t.slice(0, 300_000) : t)),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(valid, fc.array(mutation, { minLength: 1, maxLength: 3 }))
        .map(([doc, ms]) => ms.reduce(mutate, enc(doc))),
      weight: 3,
    },
    { arbitrary: fc.constantFrom(enc(""), enc("null"), enc("[]"), enc("{}")), weight: 1 },
  );
}
