/**
 * Greedy shrinking of a failing plugin case (issue 15: minimal failing inputs): each env
 * variable back to a plain valid value, each config key removed (the top level's and
 * ipam's), array elements removed one at a time; a step is kept while the case still fails
 * with the same kind. Every try is a real exec, so the number of tries is bounded.
 */
import { CHAINED_IFNAME, NETNS_TOKEN } from "./env.ts";
import type { PluginCase } from "./case.ts";
import type { FailureKind } from "./judge.ts";

/** Runs a case and says whether it still fails with the kind being shrunk. */
export type StillFails = (c: PluginCase) => Promise<boolean>;

const enc = (v: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(v));
const KEEP = new Set(["cniVersion", "name", "type"]);

/** Simpler variants of a config object, smallest first. */
function configVariants(conf: Record<string, unknown>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const key of Object.keys(conf)) {
    if (KEEP.has(key)) continue;
    const { [key]: _gone, ...rest } = conf;
    out.push(rest);
  }
  for (const [key, value] of Object.entries(conf)) {
    if (Array.isArray(value) && value.length > 1)
      for (let i = 0; i < value.length; i++) out.push({ ...conf, [key]: value.filter((_, j) => j !== i) });
    if (key === "ipam" && typeof value === "object" && value !== null && !Array.isArray(value)) {
      for (const sub of configVariants(value as Record<string, unknown>)) out.push({ ...conf, ipam: sub });
    }
  }
  return out;
}

/** Simpler variants of a case: plainer env values, then smaller configs. */
function variants(c: PluginCase): PluginCase[] {
  const out: PluginCase[] = [];
  const plain: Record<string, string> = {
    CNI_CONTAINERID: "f00d",
    CNI_NETNS: NETNS_TOKEN,
    CNI_IFNAME: c.env.CNI_IFNAME === CHAINED_IFNAME ? CHAINED_IFNAME : "eth0",
    CNI_ARGS: "",
  };
  for (const [k, v] of Object.entries(plain)) if (c.env[k] !== v) out.push({ ...c, env: { ...c.env, [k]: v } });
  let conf: unknown;
  try {
    conf = JSON.parse(new TextDecoder().decode(c.stdin));
  } catch {
    return out;
  }
  if (typeof conf === "object" && conf !== null && !Array.isArray(conf))
    for (const v of configVariants(conf as Record<string, unknown>)) out.push({ ...c, stdin: enc(v) });
  return out;
}

/**
 * The smallest variant of `c` that still fails as `kind` within `maxTries` execs.
 *
 * @example const small = await shrinkCase(c, "leak", (x) => fails(x), 30)
 */
export async function shrinkCase(
  c: PluginCase,
  _kind: FailureKind,
  stillFails: StillFails,
  maxTries = 30,
): Promise<{ case: PluginCase; tries: number; steps: number }> {
  let best = c;
  let tries = 0;
  let steps = 0;
  let improved = true;
  while (improved && tries < maxTries) {
    improved = false;
    for (const v of variants(best)) {
      if (tries >= maxTries) break;
      tries++;
      if (await stillFails(v)) {
        best = v;
        steps++;
        improved = true;
        break;
      }
    }
  }
  return { case: best, tries, steps };
}
