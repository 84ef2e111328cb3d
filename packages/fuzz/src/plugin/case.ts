/**
 * One plugin case (a plugin name, an env set, stdin bytes, all with run tokens), how it is
 * generated from a seed, and its replay file form: env, stdin as base64, plugin, kind.
 */
import fc from "fast-check";
import { envSetFor, type EnvSet } from "./env.ts";
import { isChained } from "./configs.ts";
import type { FailureKind } from "./judge.ts";
import { pluginStdin } from "./stdin.ts";

/** One exec-protocol case for one plugin. */
export interface PluginCase {
  readonly plugin: string;
  readonly env: EnvSet;
  readonly stdin: Uint8Array;
}

/** The arbitrary of cases for `plugin`. */
export function caseArbitrary(plugin: string): fc.Arbitrary<PluginCase> {
  return fc
    .record({ env: envSetFor(isChained(plugin)), stdin: pluginStdin(plugin) })
    .map(({ env, stdin }) => ({ plugin, env, stdin }));
}

/** A small stable hash of a plugin name, so every plugin draws its own cases from one seed. */
function nameHash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h | 0;
}

/** The seed of case `index` of `plugin` in a run seeded `seed`. */
export const caseSeed = (seed: number, plugin: string, index: number): number =>
  (seed ^ nameHash(plugin)) + index * 7919;

/** Draws case `index` of `plugin` (the same seed and index always give the same case). */
export function drawCase(arb: fc.Arbitrary<PluginCase>, seed: number, plugin: string, index: number): PluginCase {
  const [c] = fc.sample(arb, { seed: caseSeed(seed, plugin, index), numRuns: 1 });
  if (c === undefined) throw new Error("fast-check drew no case");
  return c;
}

/** A failure's replay file. */
export interface PluginReplayFile {
  readonly target: "plugin";
  readonly dir: string;
  readonly plugin: string;
  readonly kind: FailureKind;
  readonly detail: string;
  readonly seed: number;
  readonly index: number;
  readonly env: EnvSet;
  readonly stdinBase64: string;
  /** The stdin as text, for reading (the first 2,000 characters). */
  readonly stdinText: string;
}

/** The replay file of a failure. */
export function toReplayFile(
  dir: string,
  c: PluginCase,
  f: { kind: FailureKind; detail: string; seed: number; index: number },
): PluginReplayFile {
  return {
    target: "plugin",
    dir,
    plugin: c.plugin,
    kind: f.kind,
    detail: f.detail,
    seed: f.seed,
    index: f.index,
    env: c.env,
    stdinBase64: Buffer.from(c.stdin).toString("base64"),
    stdinText: new TextDecoder().decode(c.stdin).slice(0, 2000),
  };
}

/** The case back from a replay file's JSON; throws with a reason when it is not one. */
export function fromReplayFile(saved: unknown): { dir: string; kind: string; case: PluginCase } {
  const s = saved as Partial<PluginReplayFile>;
  if (typeof s.plugin !== "string" || typeof s.dir !== "string" || typeof s.stdinBase64 !== "string")
    throw new Error("not a plugin replay file (needs plugin, dir, env, stdinBase64)");
  const env: EnvSet = {};
  for (const [k, v] of Object.entries(s.env ?? {})) if (typeof v === "string") env[k] = v;
  return {
    dir: s.dir,
    kind: String(s.kind ?? ""),
    case: { plugin: s.plugin, env, stdin: Uint8Array.from(Buffer.from(s.stdinBase64, "base64")) },
  };
}
