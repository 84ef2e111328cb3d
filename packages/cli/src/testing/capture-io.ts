/**
 * A verb's streams captured for tests: `argv` as given, an empty environment and stdin,
 * and what the verb printed, chunk by chunk.
 */
import type { CommandIO } from "../io.ts";

/** The captured streams of one verb run. */
export type CapturedIO = CommandIO & { readonly out: string[]; readonly err: string[] };

/** Streams for one verb run with `argv`, recording stdout in `out` and stderr in `err`. */
export function captureIO(argv: string[]): CapturedIO {
  const out: string[] = [];
  const err: string[] = [];
  return {
    argv,
    env: {},
    readStdin: async () => new Uint8Array(),
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    out,
    err,
  };
}
