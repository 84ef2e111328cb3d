/**
 * The shapes a plugin is written against: what it receives (CmdArgs), what it provides
 * (handlers, its supported versions) and the streams it runs with (PluginIO).
 */
import type { PluginConf, Result } from "@tscni/spec";

/**
 * The outside world of one plugin invocation, injected so the framework runs in process
 * in tests. Structurally the CLI's `CommandIO` without argv (skel must not import cli).
 */
export interface PluginIO {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Reads all of stdin; a rejection becomes error code 5 (§1.11 step 3). */
  readStdin(): Promise<Uint8Array>;
  stdout(s: string): void;
  stderr(s: string): void;
}

/** Everything a handler gets: the CNI_* variables and the parsed stdin config. */
export interface CmdArgs {
  /** `CNI_COMMAND`: ADD, DEL, CHECK, GC or STATUS. */
  command: string;
  containerID: string;
  /** `CNI_NETNS`; may be empty on DEL (§1.1). */
  netns: string;
  ifName: string;
  /** `CNI_ARGS`, unparsed; see {@link parseCniArgs}. */
  args: string;
  path: string;
  /** The raw stdin bytes. */
  stdinData: Uint8Array;
  /** The parsed stdin object; `name` is validated, `cniVersion` defaults to "0.1.0". */
  config: PluginConf & { name: string; cniVersion: string };
}

/** A plugin's command handlers; a missing one makes that command succeed silently (ST-7, GC-10). */
export interface PluginHandlers {
  /** Returns the result; the framework prints it converted to the config's cniVersion (ADD-2). */
  add?(a: CmdArgs): Promise<Result>;
  check?(a: CmdArgs): Promise<void>;
  del?(a: CmdArgs): Promise<void>;
  gc?(a: CmdArgs): Promise<void>;
  status?(a: CmdArgs): Promise<void>;
}

/** A plugin: its name, its "about" line, the spec versions it supports, its handlers. */
export interface PluginDefinition {
  name: string;
  /** Printed on stderr when CNI_COMMAND is empty (§1.11 step 2). */
  about: string;
  /** Supported spec versions; the config version must be one of them exactly (VN-4). */
  versions: readonly string[];
  handlers: PluginHandlers;
}

/** Effects of the framework itself, replaceable in tests. */
export interface SkelPorts {
  /** True when `path` is the plugin's own network namespace (§1.11 step 7, code 8). */
  sameNetns?(path: string): boolean;
}
