/**
 * The IPAM delegate of one invocation (DLG-1..DLG-3): one object with the five commands,
 * so plugins neither know nor care whether IPAM runs in this process or as a child.
 *
 * In-process IPAM (BRIEF "Beyond the reference"): when `ipam.type` found in `CNI_PATH`
 * is this very executable (realpaths equal), and this binary carries that IPAM plugin,
 * its handlers run here with the same arguments; otherwise the delegate is executed.
 * Same semantics either way, one process less.
 */
// Sync, not node:fs/promises: that module alone costs ~2 ms of a plugin's start-up.
import { realpathSync } from "@tscni/kernel/fs";
import { convertResult, type Result, type Result100 } from "@tscni/spec";
import { checkExactVersion, commandGate, type CmdArgs, type PluginDefinition } from "@tscni/skel";

/** The IPAM plugin of an attachment, as the upper plugin sees it. */
export interface Ipam {
  /** Runs IPAM ADD and returns its result in 1.x form. */
  add(): Promise<Result100>;
  check(): Promise<void>;
  del(): Promise<void>;
  status(): Promise<void>;
  gc(): Promise<void>;
}

/** Makes the Ipam of one invocation from the `ipam.type` and the invocation's arguments. */
export type IpamFactory = (type: string, args: CmdArgs) => Ipam;

/** The exec side of delegation (the `@tscni/invoke` functions), loaded only when used. */
export interface DelegateExec {
  add(type: string, stdin: Uint8Array, env: Readonly<Record<string, string | undefined>>): Promise<Result>;
  run(
    command: "CHECK" | "DEL" | "STATUS" | "GC",
    type: string,
    stdin: Uint8Array,
    env: Readonly<Record<string, string | undefined>>,
  ): Promise<void>;
}

/** What the delegating factory needs. */
export interface IpamDeps {
  /** The environment a delegate inherits (the plugin's own, DLG-1). */
  env: Readonly<Record<string, string | undefined>>;
  /** This executable (`process.execPath`); undefined never runs IPAM in process. */
  selfPath: string | undefined;
  /** IPAM plugins this binary carries, by type, loaded lazily. */
  inProcess: Readonly<Record<string, () => Promise<PluginDefinition>>>;
  /** Finds a plugin in CNI_PATH (`@tscni/invoke` findInPath). */
  findInPath: (name: string, paths: readonly string[]) => Promise<string>;
  /** Runs a delegate as a child process. */
  exec: () => Promise<DelegateExec>;
}

/** Converts whatever version IPAM answered in to the 1.x result plugins work with (PR-3). */
export function toCurrent(result: Result): Result100 {
  return convertResult(result, "1.1.0") as Result100;
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/**
 * The production factory: looks the type up in CNI_PATH once per invocation, then either
 * calls the in-process handlers (same CmdArgs, command replaced) or execs the delegate
 * with the plugin's environment and stdin (DLG-1, DLG-3).
 */
export function delegatingIpam(deps: IpamDeps): IpamFactory {
  return (type, args) => {
    let resolved: Promise<PluginDefinition | undefined> | undefined;
    const local = (): Promise<PluginDefinition | undefined> => {
      resolved ??= (async () => {
        const found = await deps.findInPath(
          type,
          args.path.split(":").filter((p: string) => p !== ""),
        );
        const load = Object.hasOwn(deps.inProcess, type) ? deps.inProcess[type] : undefined;
        if (load === undefined || deps.selfPath === undefined || !sameFile(found, deps.selfPath)) return undefined;
        return load();
      })();
      return resolved;
    };
    // The delegate sees the plugin's own invocation (DLG-1); only CNI_COMMAND changes (DLG-3).
    const env = {
      ...deps.env,
      CNI_CONTAINERID: args.containerID,
      CNI_NETNS: args.netns,
      CNI_IFNAME: args.ifName,
      CNI_ARGS: args.args,
      CNI_PATH: args.path,
    };
    // In process, the version gates the delegate's own framework would apply still apply.
    const gated = (def: PluginDefinition, command: string): CmdArgs => {
      const error =
        commandGate(command, args.config.cniVersion, def.versions) ??
        checkExactVersion(args.config.cniVersion, def.versions);
      if (error !== undefined) throw error;
      return { ...args, command };
    };
    const run = async (command: "CHECK" | "DEL" | "STATUS" | "GC"): Promise<void> => {
      const def = await local();
      if (def === undefined) return (await deps.exec()).run(command, type, args.stdinData, env);
      const h = def.handlers;
      const handler = { CHECK: h.check, DEL: h.del, STATUS: h.status, GC: h.gc }[command];
      const call = gated(def, command);
      await handler?.call(h, call);
    };
    return {
      add: async () => {
        const def = await local();
        if (def === undefined) return toCurrent(await (await deps.exec()).add(type, args.stdinData, env));
        if (def.handlers.add === undefined) throw new Error(`plugin "${type}" has no ADD`);
        return toCurrent(await def.handlers.add(gated(def, "ADD")));
      },
      check: () => run("CHECK"),
      del: () => run("DEL"),
      status: () => run("STATUS"),
      gc: () => run("GC"),
    };
  };
}

/** The exec side over `@tscni/invoke`, imported on first use so the in-process path never loads it. */
export async function invokeExec(): Promise<DelegateExec> {
  const invoke = await import("@tscni/invoke");
  return {
    add: (type, stdin, env) => invoke.delegateAdd(type, stdin, env),
    run: (command, type, stdin, env) => {
      const fn = {
        CHECK: invoke.delegateCheck,
        DEL: invoke.delegateDel,
        STATUS: invoke.delegateStatus,
        GC: invoke.delegateGC,
      }[command];
      return fn(type, stdin, env);
    },
  };
}
