/**
 * `cni fuzz config`: bytes in, to our config parsers (libcni's NetworkConfFromBytes and
 * ConfListFromBytes, §2): a typed config or a CniError with a code and a message out
 * (decoding 6, invalid config 7, version 1); anything else is a failure. Lint's checks
 * must agree with the parsers (their first issue is what the parser throws) and every
 * issue's JSON path must point into the document. With plugin decoders (the CLI passes
 * each plugin's own, which this package may not import), the bytes also go through the
 * decoding of the plugin the document names, as its ADD does before the kernel, with a
 * generated CNI_ARGS (the decoders that read `IP=`, `MAC=`, `GATEWAY=` are fuzzed too).
 */
import fc from "fast-check";
import { checkConfList, checkPluginConf, issueToError, parseConfList, parsePluginConf } from "@tscni/config";
import type { ConfigIssue } from "@tscni/config";
import { mutatedBytes } from "../bytes.ts";
import { configCniArgs } from "../cni-args.ts";
import { configDocument } from "../configs.ts";
import { describeThrown, judge, type Target } from "../target.ts";
import { judgePlugin, type PluginDecoding, pluginsNamedIn } from "./plugin-decoding.ts";

const CODES = [1, 6, 7];

/** Where lint's issues and the parser's error disagree, or an issue's path leads nowhere. */
function lint(
  label: string,
  check: () => readonly ConfigIssue[],
  parsed: { failure?: string; error?: unknown },
  doc: unknown,
): string | undefined {
  let issues: readonly ConfigIssue[];
  try {
    issues = check();
  } catch (e) {
    return `${label}: ${describeThrown(e)}`;
  }
  const [first] = issues;
  if (first === undefined) return parsed.error === undefined ? undefined : `${label} found nothing the parser refused`;
  if (parsed.error === undefined) return `${label} found "${first.message}" the parser accepted`;
  const want = issueToError(first);
  const got = parsed.error as { code?: unknown; msg?: unknown };
  if (got.code !== want.code || got.msg !== want.msg)
    return `${label}'s first issue (${want.code} ${want.msg}) is not the parser's error (${String(got.code)} ${String(got.msg)})`;
  for (const issue of issues) {
    if (issue.code !== 6 && issue.code !== 7) return `${label}: issue with code ${issue.code}`;
    if (issue.message === "") return `${label}: issue without a message`;
    if (issue.code === 7 && doc !== undefined && !reaches(doc, issue.path))
      return `${label}: the path ${JSON.stringify(issue.path)} of "${issue.message}" leads nowhere in the document`;
  }
  return undefined;
}

/** The path's parent exists in `doc` (its last step may be the key that is missing). */
function reaches(doc: unknown, path: readonly (string | number)[]): boolean {
  let at = doc;
  for (const step of path.slice(0, -1)) {
    if (typeof at !== "object" || at === null || !Object.hasOwn(at, step)) return false;
    at = (at as Record<string | number, unknown>)[step];
  }
  return true;
}

/** The document as JSON.parse reads it, or undefined. */
function decode(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

/** Runs a parser, keeping the CniError it threw for lint to compare with. */
function parse(label: string, fn: () => unknown): { failure?: string; error?: unknown } {
  let error: unknown;
  const r = judge(label, CODES, () => {
    try {
      return fn();
    } catch (e) {
      error = e;
      throw e;
    }
  });
  return { ...(r.failure === undefined ? {} : { failure: r.failure }), error };
}

/** One config case: the bytes, and the CNI_ARGS the plugin decoders get with them. */
export interface ConfigCase {
  readonly bytes: Uint8Array;
  readonly cniArgs: string;
}

/** The config target over raw bytes; with `plugins`, each plugin's own decoding too. */
export function configTargetWith(plugins?: PluginDecoding): Target<ConfigCase> {
  return {
    name: "config",
    summary: plugins
      ? "config bytes through our plugin and list parsers, lint's checks and each plugin's own decoding"
      : "config bytes through our plugin and list parsers (and lint's checks)",
    arbitrary: fc.record({ bytes: mutatedBytes(configDocument), cniArgs: configCniArgs }),
    check({ bytes, cniArgs }) {
      const doc = decode(bytes);
      const one = parse("parsePluginConf", () => parsePluginConf(bytes));
      if (one.failure !== undefined) return one.failure;
      const list = parse("parseConfList", () => parseConfList(bytes));
      if (list.failure !== undefined) return list.failure;
      const bad =
        lint("checkPluginConf", () => checkPluginConf(bytes), one, doc) ??
        lint("checkConfList", () => checkConfList(bytes), list, doc);
      if (bad !== undefined || plugins === undefined) return bad;
      for (const [type, stdin] of pluginsNamedIn(doc, bytes, plugins.types)) {
        const failure = judgePlugin(type, () => plugins.decode(type, stdin, cniArgs));
        if (failure !== undefined) return failure;
      }
      return undefined;
    },
    save: ({ bytes, cniArgs }) => ({
      base64: Buffer.from(bytes).toString("base64"),
      text: new TextDecoder().decode(bytes).slice(0, 2000),
      cniArgs,
    }),
    load: (saved) => {
      // A replay file from before CNI_ARGS was generated has none: the decoders got "".
      const s = saved as { base64?: unknown; cniArgs?: unknown };
      return {
        bytes: Uint8Array.from(Buffer.from(String(s.base64 ?? ""), "base64")),
        cniArgs: typeof s.cniArgs === "string" ? s.cniArgs : "",
      };
    },
  };
}

/** The config target over our libcni-level parsers alone. */
export const configTarget: Target<ConfigCase> = configTargetWith();
