/**
 * `cni lint`, the pure part: given the files of a config directory, what each file holds,
 * which file each network name loads from and why, and what is wrong, with JSON paths.
 * Loading goes through the same rules the runtime uses (@tscni/config), so lint tells the
 * truth about what containerd, CRI-O or cnitool would do with the directory.
 */
import { basename } from "node:path";
import {
  type ConfFile,
  type DefaultCandidate,
  type DropInReader,
  type NetworkConfigList,
  checkConfList,
  checkPluginConf,
  confListFromFile,
  confToList,
  defaultNetworkCandidates,
  issueText,
  parsePluginConf,
  selectNetwork,
} from "@tscni/config";
import { isKnownVersion } from "@tscni/spec";

/** What one config file holds, or what is wrong with it. */
export interface FileReport {
  readonly path: string;
  readonly kind: "list" | "single";
  /** The network name, when the file says one (even a broken file may). */
  readonly name: string | undefined;
  /** The parsed list (a single config wrapped), when the file is valid. */
  readonly list: NetworkConfigList | undefined;
  readonly problems: readonly string[];
  readonly notes: readonly string[];
}

/** How one network name resolves. */
export interface NetworkReport {
  readonly name: string;
  /** Every file with this name, in the order libcni tries them. */
  readonly files: readonly string[];
  /** What loading the name gives: the list, or the error that stops it. */
  readonly loaded: NetworkConfigList | undefined;
  readonly loadError: string | undefined;
  /** The list the name would load once the directory's problems are fixed (the first valid file with this name). */
  readonly intended: NetworkConfigList | undefined;
  /** Why the winning file wins, in words. */
  readonly why: string;
  readonly problems: readonly string[];
}

/** The whole directory. */
export interface DirReport {
  readonly dir: string;
  readonly files: readonly FileReport[];
  readonly networks: readonly NetworkReport[];
  /** The files kubelet would consider for its default network, in order. */
  readonly defaultCandidates: readonly DefaultCandidate[];
}

const NAME_RE = /^[a-zA-Z0-9][a-zA-Z0-9_.\-]*$/;

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The `name` a document declares, best effort, for grouping broken files too. */
function declaredName(bytes: Uint8Array): string | undefined {
  try {
    const doc: unknown = JSON.parse(new TextDecoder().decode(bytes));
    const name = typeof doc === "object" && doc !== null ? (doc as Record<string, unknown>).name : undefined;
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}

function listNotes(list: NetworkConfigList): { problems: string[]; notes: string[] } {
  const problems: string[] = [];
  const notes: string[] = [];
  // VAL-1/VAL-5: libcni loads any name, but ADD rejects it.
  if (!NAME_RE.test(list.name)) {
    problems.push(
      `name: network name ${JSON.stringify(list.name)} is not allowed (letters, digits, '_', '.', '-', starting with a letter or digit); ADD will fail`,
    );
  }
  if (list.cniVersion === "")
    notes.push("no cniVersion: treated as 0.1.0, so CHECK is not supported and DEL gets no cached result");
  else if (!isKnownVersion(list.cniVersion)) {
    problems.push(
      `cniVersion: ${JSON.stringify(list.cniVersion)} is not a CNI version (known: 0.1.0 to 1.1.0); plugins will reject it`,
    );
  }
  return { problems, notes };
}

function reportFile(file: ConfFile, dropIns: DropInReader): FileReport {
  const kind = file.path.endsWith(".conflist") ? "list" : "single";
  const name = declaredName(file.bytes);
  const issues = kind === "list" ? checkConfList(file.bytes) : checkPluginConf(file.bytes);
  if (issues.length > 0) {
    const problems = issues.map((i) => issueText(i, file.path));
    if (
      kind === "single" &&
      issues.some((i) => i.message.endsWith("missing 'type'")) &&
      file.bytes.length > 0 &&
      /"plugins"\s*:/.test(new TextDecoder().decode(file.bytes))
    ) {
      problems.push(`${file.path}: this looks like a list: rename it to .conflist`);
    }
    return { path: file.path, kind, name, list: undefined, problems, notes: [] };
  }
  try {
    const list =
      kind === "list" ? confListFromFile(file, dropIns) : confToList(parsePluginConf(file.bytes, file.path), file.path);
    const { problems, notes } = listNotes(list);
    if (kind === "single") notes.push("single-plugin file (deprecated format): it is wrapped into a one-plugin list");
    return { path: file.path, kind, name, list, problems: problems.map((p) => `${file.path}: ${p}`), notes };
  } catch (err) {
    return { path: file.path, kind, name, list: undefined, problems: [message(err)], notes: [] };
  }
}

function why(files: readonly string[], winner: string | undefined): string {
  if (winner === undefined) return "";
  const losers = files.filter((f) => f !== winner);
  if (losers.length === 0) return `defined only in ${basename(winner)}`;
  return losers
    .map((l) => {
      const reason =
        winner.endsWith(".conflist") && !l.endsWith(".conflist")
          ? ".conflist files are loaded first"
          : "first in sort order";
      return `${basename(winner)} wins over ${basename(l)}: ${reason}`;
    })
    .join("; ");
}

/** Says which file stops a load: the network's own file, or another broken file read before it. */
function explainLoadError(error: string, own: readonly FileReport[], all: readonly FileReport[]): string {
  const blocker = all.find((f) => f.list === undefined && error.startsWith(`${f.path}:`));
  if (blocker === undefined) return error;
  if (own.includes(blocker)) return `its file ${basename(blocker.path)} is broken (see its problems)`;
  return `${basename(blocker.path)} is broken, and libcni stops at the first broken file it reads, whatever its network (fix or remove it)`;
}

/**
 * Analyses a config directory: `files` are its regular config files, `dropIns` reads a
 * network's drop-in directory.
 */
export function analyzeConfDir(dir: string, files: readonly ConfFile[], dropIns: DropInReader): DirReport {
  const order = [...files].sort((a, b) => {
    const rank = (f: ConfFile) => (f.path.endsWith(".conflist") ? 0 : 1);
    return rank(a) - rank(b) || Buffer.compare(Buffer.from(a.path), Buffer.from(b.path));
  });
  const reports = order.map((f) => reportFile(f, dropIns));
  const names = [...new Set(reports.map((r) => r.name).filter((n): n is string => n !== undefined))];
  const networks = names.map((name): NetworkReport => {
    const same = reports.filter((r) => r.name === name);
    let loaded: NetworkConfigList | undefined;
    let loadError: string | undefined;
    try {
      loaded = selectNetwork(files, name, dropIns, dir);
    } catch (err) {
      loadError = message(err);
    }
    const intended = loaded ?? same.find((r) => r.list !== undefined)?.list;
    const problems: string[] = [];
    if (loadError !== undefined)
      problems.push(`network ${JSON.stringify(name)} cannot be loaded: ${explainLoadError(loadError, same, reports)}`);
    const paths = same.map((r) => r.path);
    const used = intended?.source ?? paths[0] ?? "";
    if (paths.length > 1) {
      problems.push(
        `network ${JSON.stringify(name)} is defined in ${paths.length} files (${paths.map((p) => basename(p)).join(", ")}); only ${basename(used)} is used`,
      );
    }
    return { name, files: paths, loaded, loadError, intended, why: why(paths, intended?.source), problems };
  });
  return { dir, files: reports, networks, defaultCandidates: defaultNetworkCandidates(files, dropIns) };
}
