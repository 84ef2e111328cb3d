/**
 * The streams and environment a command runs with, injected so commands are testable
 * in process.
 */

/** What a CLI verb or plugin entry receives from the outside world. */
export interface CommandIO {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Reads all of stdin. */
  readonly readStdin: () => Promise<Uint8Array>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** A CLI verb: its one-line summary, its help text and its entry. */
export interface Verb {
  readonly summary: string;
  readonly help: string;
  readonly run: (io: CommandIO) => Promise<number>;
}
