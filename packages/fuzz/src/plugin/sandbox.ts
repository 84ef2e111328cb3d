/**
 * The port the plugin fuzzer drives (CONVENTIONS item 3): run one plugin exec in the
 * sandbox's host namespace, snapshot the kernel state, start over with fresh namespaces.
 * The real one is `linux/sandbox.ts`; the runner itself stays pure of Bun and the kernel.
 */
import type { EnvSet } from "./env.ts";
import type { ExecOutcome } from "./judge.ts";

/** One exec: what a runtime saw, the files written outside the allowed dirs, how long it took. */
export interface SandboxExec {
  readonly outcome: ExecOutcome;
  readonly writes: readonly string[];
  readonly ms: number;
}

/** A place to run plugin cases in. */
export interface Sandbox {
  /** The namespaces and temp dir, for messages. */
  readonly names: { readonly host: string; readonly container: string; readonly tmp: string };
  /** Runs `plugin` (a file in the plugin dir) with `env` and `stdin`, tokens filled in. */
  exec(plugin: string, env: EnvSet, stdin: Uint8Array): Promise<SandboxExec>;
  /** The kernel state of both namespaces and the host's firewall, as lines. */
  snapshot(): Promise<Set<string>>;
  /** Deletes and recreates both namespaces and the IPAM store: back to the baseline. */
  reset(): void;
  /** Deletes everything the sandbox made. */
  destroy(): void;
}
