/**
 * The plugin dispatcher, in the order of the Go skel (SPEC.md §1.11): environment,
 * stdin, config, version gates, handler, and the error JSON on stdout with exit 1.
 */
import { CURRENT_VERSION, CniError, ErrorCode } from "@tscni/spec";
import { configVersion, decodeConfig } from "./config.ts";
import type { RawConfig } from "./config.ts";
import { readCniEnv } from "./env.ts";
import type { CniEnv } from "./env.ts";
import { checkExactVersion, commandGate } from "./gates.ts";
import { isOwnNetns } from "./netns.ts";
import { printJson, printResult } from "./print.ts";
import type { CmdArgs, PluginDefinition, PluginIO, SkelPorts } from "./types.ts";

/** What one run decided: an error to print (with the config version when known), or none. */
interface Outcome {
  error?: CniError;
  cniVersion?: string;
}

/**
 * Runs a plugin for one invocation and returns its exit code: 0 on success, 1 after
 * printing the error object on stdout (§1.11 step 8, E-4).
 *
 * @example process.exitCode = await pluginMain(definition, io)
 */
export async function pluginMain(def: PluginDefinition, io: PluginIO, ports: SkelPorts = {}): Promise<number> {
  const outcome = await dispatch(def, io, ports);
  if (outcome.error === undefined) return 0;
  // [DIFF] E-1 vs E-2: the spec's error object has `cniVersion`, the Go skel's has not.
  // We include the config's version once it decoded (runtimes ignore extra keys, E-5),
  // and leave it out when the failure came before a config was read.
  io.stdout(printJson(outcome.error.toWire(outcome.cniVersion)));
  return 1;
}

async function dispatch(def: PluginDefinition, io: PluginIO, ports: SkelPorts): Promise<Outcome> {
  // Steps 1 and 2: environment variables (ENV-1..ENV-3).
  const env = readCniEnv(io.env);
  if (env instanceof CniError) {
    if (env.code === ErrorCode.InvalidEnvironmentVariables && (io.env.CNI_COMMAND ?? "") === "" && def.about !== "") {
      io.stderr(`${def.about}\nCNI protocol versions supported: ${def.versions.join(", ")}\n`);
      return {};
    }
    return { error: env };
  }
  // Step 3: VERSION never reads stdin, and answers with the library's version (VER-3).
  if (env.command === "VERSION") {
    io.stdout(`${JSON.stringify({ cniVersion: CURRENT_VERSION, supportedVersions: def.versions })}\n`);
    return {};
  }
  let stdin: Uint8Array;
  try {
    stdin = await io.readStdin();
  } catch (err) {
    return {
      error: new CniError(
        ErrorCode.IOFailure,
        `error reading from stdin: ${err instanceof Error ? err.message : String(err)}`,
      ),
    };
  }
  // Step 4: the config, for every command but VERSION (unknown ones included).
  const config = decodeConfig(stdin);
  if (config instanceof CniError) return { error: config };
  const decoded = configVersion(config);
  // An error object never repeats a version the plugin does not support (issue 16 item 6):
  // the reference omits it, and "99.0.0" in an answer would claim we speak it.
  const cniVersion = typeof decoded === "string" && def.versions.includes(decoded) ? decoded : undefined;
  const error = await dispatchCommand(def, io, ports, env, stdin, config);
  return error === undefined ? {} : { error, cniVersion };
}

/** Step 5: the per-command version gates, then the handler (steps 6 and 7). */
async function dispatchCommand(
  def: PluginDefinition,
  io: PluginIO,
  ports: SkelPorts,
  env: CniEnv,
  stdin: Uint8Array,
  config: RawConfig,
): Promise<CniError | undefined> {
  const command = env.command;
  if (!["ADD", "DEL", "CHECK", "GC", "STATUS"].includes(command)) {
    return new CniError(ErrorCode.InvalidEnvironmentVariables, `unknown CNI_COMMAND: ${command}`);
  }
  const version = configVersion(config);
  if (version instanceof CniError) return version;
  const gate = commandGate(command, version, def.versions) ?? checkExactVersion(version, def.versions);
  if (gate !== undefined) return gate;

  // §1.11 step 7, CNI_NETNS naming the plugin's own namespace. CNI_NETNS_OVERRIDE=1/true
  // skips all of this (P-7); an unopenable path is not this netns.
  // [DIFF] The Go skel checks ADD and DEL after the handler, when an ADD result may already
  // be on stdout and the interface made. We check ADD and CHECK first (code 8: CHECK would
  // otherwise judge the host's own interfaces). DEL is tolerant, as the reference v1.1.1
  // (DEL-2, LC-3: a DEL must be able to finish): it succeeds, but runs with an empty
  // CNI_NETNS, so it touches no interface of the plugin's own namespace and only releases
  // what lives outside it (IPAM).
  const override = env.netnsOverride;
  const skip = override.toUpperCase() === "TRUE" || override === "1";
  const own =
    !skip &&
    (command === "ADD" || command === "CHECK" || command === "DEL") &&
    (ports.sameNetns ?? isOwnNetns)(env.netns);
  if (own && command !== "DEL") {
    return new CniError(ErrorCode.InvalidNetNS, "plugin's netns and netns from CNI_NETNS should not be the same");
  }

  const args: CmdArgs = {
    command,
    containerID: env.containerID,
    netns: own ? "" : env.netns,
    ifName: env.ifName,
    args: env.args,
    path: env.path,
    stdinData: stdin,
    config: { ...config, type: typeof config.type === "string" ? config.type : "", cniVersion: version },
  };
  const h = def.handlers;
  try {
    // A missing handler succeeds silently, as the Go skel's nil funcs do (ST-7, GC-10).
    switch (command) {
      case "ADD": {
        const result = await h.add?.(args);
        if (result !== undefined) io.stdout(printResult(result, version));
        break;
      }
      case "DEL":
        await h.del?.(args);
        break;
      case "CHECK":
        await h.check?.(args);
        break;
      case "GC":
        await h.gc?.(args);
        break;
      case "STATUS":
        await h.status?.(args);
        break;
    }
  } catch (err) {
    // Step 6: a CniError passes through; anything else is code 999 with its message only.
    return CniError.from(err);
  }
  return undefined;
}
