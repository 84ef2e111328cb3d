/**
 * `cni lint [dir]`: a config directory explained: which file each network loads from and
 * why, what is wrong and where (file and JSON path), kubelet's default network, and
 * whether every plugin is installed and supports the network's version.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { type NetworkConfigList, readConfDir, readDropInDir } from "@tscni/config";
import { findInPath, getVersionInfo, splitPathList } from "@tscni/invoke";
import type { CommandIO, Verb } from "../io.ts";
import { analyzeConfDir } from "../lint/analyze.ts";
import { type PluginProbe, type PluginReport, checkPlugins, sharedProbe } from "../lint/plugins.ts";
import { renderLint } from "../lint/render.ts";

const DEFAULT_DIR = "/etc/cni/net.d";
const DEFAULT_BIN_DIR = "/opt/cni/bin";
const EXTENSIONS = [".conflist", ".conf", ".json"];
/** A plugin that takes longer than this to answer VERSION is reported as not answering. */
const VERSION_TIMEOUT_MS = 5000;

const help = `usage: cni lint [dir]

Explains a CNI config directory the way the runtime will read it:
  - what each .conflist, .conf and .json file holds, and every problem in it, with the
    file and the JSON path of the offending field;
  - for each network name, which file wins and why (.conflist files are loaded before
    .conf/.json files; among files of one kind the first in sort order wins), and
    whether the name loads at all (one broken .conflist stops every load that reaches it);
  - kubelet's default network: the first valid file (by name) whose plugins are installed;
  - whether every plugin and IPAM plugin is found in CNI_PATH and supports the network's
    cniVersion (each plugin is asked with VERSION).

dir defaults to $NETCONFPATH, else ${DEFAULT_DIR}.
CNI_PATH (directories separated by ':') defaults to ${DEFAULT_BIN_DIR}.

Exit status: 0 when nothing is wrong, 1 when any problem is found, 2 on a usage error.
`;

/** Config-like names the loader ignores because of their letter case (10-a.CONFLIST). */
function ignoredNames(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => {
      const dot = n.lastIndexOf(".");
      const ext = dot >= 0 ? n.slice(dot) : "";
      return !EXTENSIONS.includes(ext) && EXTENSIONS.includes(ext.toLowerCase());
    })
    .filter((n) => {
      try {
        return statSync(join(dir, n)).isFile();
      } catch {
        return false;
      }
    })
    .sort();
}

function realProbe(paths: readonly string[]): PluginProbe {
  return sharedProbe({
    find: (type) => findInPath(type, paths),
    versions: async (path) => (await getVersionInfo(path, { timeoutMs: VERSION_TIMEOUT_MS })).supportedVersions,
  });
}

async function lint(io: CommandIO, dir: string): Promise<number> {
  const fromEnv = splitPathList(io.env.CNI_PATH);
  const pathList = fromEnv.length > 0 ? fromEnv : [DEFAULT_BIN_DIR];
  const problems: string[] = [];
  if (!existsSync(dir)) problems.push(`the directory ${dir} does not exist`);
  const files = readConfDir(dir, EXTENSIONS);
  const report = analyzeConfDir(dir, files, readDropInDir);
  const ignored = ignoredNames(dir);
  const probe = realProbe(pathList);

  for (const f of report.files) problems.push(...f.problems);
  for (const name of ignored) problems.push(`${join(dir, name)}: ignored because of the letter case of its extension`);
  for (const n of report.networks) problems.push(...n.problems);

  const plugins = new Map<NetworkConfigList, readonly PluginReport[]>();
  for (const n of report.networks) {
    // Check the plugins of the list the name loads, or would load once the directory is fixed.
    const list = n.loaded ?? n.intended;
    if (list === undefined) continue;
    const checks = await checkPlugins(list, probe);
    plugins.set(list, checks);
    for (const c of checks)
      if (c.problem !== undefined)
        problems.push(`network ${JSON.stringify(n.name)} (${basename(list.source ?? "?")}) ${c.problem}`);
  }

  // kubelet skips invalid files, then lists whose plugins fail VERSION validation (top-level types only).
  const skipped: string[] = [];
  let pick: NetworkConfigList | undefined;
  for (const c of report.defaultCandidates) {
    if (c.network === undefined) {
      skipped.push(`${basename(c.path)}: not valid: ${c.warning}`);
      continue;
    }
    const failing = (await checkPlugins(c.network, probe)).filter(
      (r) => !r.where.endsWith(".ipam") && r.problem !== undefined,
    );
    if (failing.length > 0) {
      skipped.push(`${basename(c.path)}: ${failing.map((r) => r.problem).join("; ")}`);
      continue;
    }
    pick = c.network;
    break;
  }
  if (pick === undefined)
    problems.push("there is no default network: kubelet would report the node's network as not ready");

  io.stdout(
    renderLint({
      report,
      pathList,
      pathSource: fromEnv.length > 0 ? "CNI_PATH" : "default; set CNI_PATH to change it",
      plugins,
      ignored,
      problems,
      defaultPick: { list: pick, skipped },
    }),
  );
  return problems.length > 0 ? 1 : 0;
}

/** The lint verb. */
export const verb: Verb = {
  summary: "explain a config directory: which file wins, what is wrong, and where",
  help,
  run: async (io) => {
    if (io.argv.includes("--help") || io.argv.includes("-h")) {
      io.stdout(help);
      return 0;
    }
    const flag = io.argv.find((a) => a.startsWith("-"));
    if (flag !== undefined || io.argv.length > 1) {
      io.stderr(`cni lint: ${flag !== undefined ? `unknown flag "${flag}"` : "at most one directory"}\n\n${help}`);
      return 2;
    }
    const dir = io.argv[0] ?? (io.env.NETCONFPATH || DEFAULT_DIR);
    return lint(io, dir);
  },
};
