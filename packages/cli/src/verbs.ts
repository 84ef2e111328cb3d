/**
 * The `cni` command's verbs: a static table of lazy loaders (no import-time
 * registration, and nothing heavy loads until a verb is chosen).
 */
import type { Verb } from "./io.ts";

/** Verb name to a loader of its module (each module exports `verb`). */
export const VERBS: Readonly<Record<string, { summary: string; load: () => Promise<{ verb: Verb }> }>> = {
  convert: { summary: "convert a result on stdin to another spec version", load: () => import("./verbs/convert.ts") },
  plan: { summary: "print kernel operations as the iproute2 script they amount to", load: () => import("./verbs/plan.ts") },
};
