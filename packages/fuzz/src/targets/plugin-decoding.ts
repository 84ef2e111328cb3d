/**
 * The plugin half of the `config` target: which plugins' decoding a document reaches, and
 * how one decoding is judged. A plugin's parse may end in a CniError (any code, with a
 * message) or a plain `Error` with a message, which the skel reports as code 999 (§1.11
 * step 6, as the reference's plain errors); a TypeError, RangeError or any other throw is
 * a crash in our code. Plugin errors carry no JSON path: their messages are the
 * reference's, which name the Go struct field instead (`Go struct field NetConf.mtu`).
 */
import { CniError } from "@tscni/spec";
import { describeThrown, SLOW_MS } from "../target.ts";

/** Each plugin's own config decoding, as the CLI wires it (this package may not import plugins). */
export interface PluginDecoding {
  /** The plugin types it decodes. */
  readonly types: readonly string[];
  /** Decodes stdin (with CNI_ARGS `cniArgs`) as `type`'s ADD would before the kernel; throws as the plugin would. */
  decode(type: string, stdin: Uint8Array, cniArgs: string): unknown;
}

/**
 * The (type, stdin) pairs a document reaches: its own `type` when known, each plugin of a
 * list given the list's name and version as libcni does (§2.3), and otherwise one type
 * picked from the bytes, so hostile documents reach every plugin's decoding too.
 */
export function pluginsNamedIn(doc: unknown, bytes: Uint8Array, types: readonly string[]): [string, Uint8Array][] {
  const out: [string, Uint8Array][] = [];
  const known = (t: unknown): t is string => typeof t === "string" && types.includes(t);
  if (typeof doc === "object" && doc !== null && !Array.isArray(doc)) {
    const obj = doc as Record<string, unknown>;
    if (known(obj.type)) out.push([obj.type, bytes]);
    if (Array.isArray(obj.plugins))
      for (const p of obj.plugins.slice(0, 8))
        if (typeof p === "object" && p !== null && known((p as { type?: unknown }).type))
          out.push([
            (p as { type: string }).type,
            new TextEncoder().encode(JSON.stringify({ ...p, name: obj.name, cniVersion: obj.cniVersion })),
          ]);
  }
  if (out.length === 0 && types.length > 0) out.push([types[bytes.length % types.length] as string, bytes]);
  return out;
}

/** Judges one plugin decoding: undefined when it ended in a value or a reported error. */
export function judgePlugin(type: string, fn: () => unknown): string | undefined {
  const label = `${type} config`;
  const started = performance.now();
  const failure = outcome(label, fn);
  const ms = performance.now() - started;
  return ms > SLOW_MS ? `${label}: took ${ms.toFixed(0)} ms` : failure;
}

function outcome(label: string, fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (e) {
    if (e instanceof CniError)
      return typeof e.msg !== "string" || e.msg === "" ? `${label}: CNI error ${e.code} without a message` : undefined;
    // A plain Error is the reference's plain error (code 999); its subclasses are crashes.
    if (e instanceof Error && e.constructor === Error)
      return e.message === "" ? `${label}: an error without a message` : undefined;
    return `${label}: ${describeThrown(e)}`;
  }
}
