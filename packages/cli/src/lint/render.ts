/**
 * `cni lint`, the words: turns the directory report and the plugin checks into text a
 * node operator can act on.
 */
import { basename } from "node:path";
import type { NetworkConfigList } from "@tscni/config";
import type { DirReport } from "./analyze.ts";
import type { PluginReport } from "./plugins.ts";

/** Everything lint found, ready to print. */
export interface LintView {
  readonly report: DirReport;
  readonly pathList: readonly string[];
  readonly pathSource: string;
  /** Plugin checks per loaded list (keyed by the list object). */
  readonly plugins: ReadonlyMap<NetworkConfigList, readonly PluginReport[]>;
  /** Names in the directory that look like configs but are ignored (wrong letter case, ...). */
  readonly ignored: readonly string[];
  /** Every problem, in the order they are listed. */
  readonly problems: readonly string[];
  /** kubelet's default network, or undefined, and why other files were passed over. */
  readonly defaultPick: { readonly list: NetworkConfigList | undefined; readonly skipped: readonly string[] };
}

function summary(list: NetworkConfigList): string {
  const version = list.cniVersion === "" ? "no cniVersion (0.1.0)" : `cniVersion ${list.cniVersion}`;
  const types = list.plugins.map((p) => p.network.type).join(", ");
  return `network ${JSON.stringify(list.name)}, ${version}, plugins: ${types}`;
}

function pluginLine(p: PluginReport): string {
  if (p.path === undefined) return `${p.where} ${p.type}: NOT FOUND in the plugin path`;
  if (p.supported === undefined) return `${p.where} ${p.type}: ${p.path}, did not answer VERSION`;
  const verdict = p.problem === undefined ? "supports this version" : "does NOT support this version";
  return `${p.where} ${p.type}: ${p.path} (${verdict}; it supports ${p.supported.join(", ")})`;
}

/** The full lint output. */
export function renderLint(view: LintView): string {
  const { report } = view;
  const out: string[] = [];
  out.push(`CNI config directory: ${report.dir}`);
  out.push(`Plugins are looked up in: ${view.pathList.join(":")} (${view.pathSource})`);
  out.push("");
  out.push(
    report.files.length === 0
      ? "Files: none (.conflist, .conf or .json)"
      : "Files, in the order libcni reads them (.conflist first, then .conf/.json, each sorted by name):",
  );
  for (const f of report.files) {
    if (f.list !== undefined) out.push(`  ${basename(f.path)}: ${summary(f.list)}`);
    else out.push(`  ${basename(f.path)}: BROKEN, see the problems below`);
    for (const n of f.notes) out.push(`      note: ${n}`);
  }
  for (const name of view.ignored)
    out.push(`  ${name}: ignored (extensions are case-sensitive: use .conflist, .conf or .json)`);

  if (report.networks.length > 0) {
    out.push("");
    out.push("Networks (what `cni add <name>`, containerd or CRI-O load for each name):");
  }
  for (const n of report.networks) {
    const list = n.loaded ?? n.intended;
    if (n.loaded !== undefined) out.push(`  ${JSON.stringify(n.name)}: loads from ${basename(n.loaded.source ?? "?")}`);
    else {
      out.push(`  ${JSON.stringify(n.name)}: CANNOT BE LOADED, see the problems below`);
      if (list !== undefined) out.push(`      once fixed, it would load from ${basename(list.source ?? "?")}`);
    }
    if (n.why !== "") out.push(`      ${n.why}`);
    for (const p of list !== undefined ? (view.plugins.get(list) ?? []) : []) out.push(`      ${pluginLine(p)}`);
  }

  out.push("");
  const pick = view.defaultPick.list;
  out.push(
    pick === undefined
      ? "Default network (kubelet's pick): NONE: no file is valid with all its plugins installed, so pods get no network"
      : `Default network (kubelet's pick): ${JSON.stringify(pick.name)} from ${basename(pick.source ?? "?")}`,
  );
  for (const s of view.defaultPick.skipped) out.push(`      passed over: ${s}`);

  out.push("");
  if (view.problems.length === 0) out.push("No problems found.");
  else {
    out.push(`${view.problems.length} problem${view.problems.length === 1 ? "" : "s"} found:`);
    view.problems.forEach((p, i) => out.push(`  ${i + 1}. ${p}`));
  }
  return `${out.join("\n")}\n`;
}
