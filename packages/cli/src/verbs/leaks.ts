/**
 * `cni leaks [--net NAME] [--json] [--repair]`: the result cache against host-local's
 * stores and the netns paths that still exist; `--repair` runs the runtime's GC (§7.7)
 * with the attachments whose netns still exists as the valid set.
 */
import { existsSync } from "node:fs";
import { loadNetwork } from "@tscni/config";
import type { NetworkConfigList } from "@tscni/config";
import { type CniRuntime, lockDirOf } from "@tscni/runtime";
import type { Verb } from "../io.ts";
import type { Leak } from "../leaks/find.ts";
import { repairNetworks } from "../leaks/repair.ts";
import { networkStates, scanLeaks as scan } from "../leaks/scan.ts";
import { networksIn } from "../leaks/gather.ts";
import { leakSummary, leakTable } from "../leaks/report.ts";
import { DEFAULT_NET_DIR, UsageError, runVerb, runtimeFor } from "./_cnitool.ts";

const help = `usage: cni leaks [--net <name>] [--json] [--repair] [--cache-dir <dir>] [--timeout <seconds>]

Checks every network of the config dir (or only --net) for:
  stale attachment     a cached attachment whose netns no longer exists (DEL never ran)
  leaked address       a host-local reservation no cached attachment holds
  missing reservation  a cached host-local address with no reservation of its attachment
  unknown attachment   a cache record that cannot be read: its pod may be alive, so the
                       addresses it may hold are never released (fix or remove the file)
  damaged reservation  a host-local reservation file whose content is no holder (empty,
                       garbage); its content is shown escaped

--json    print {"networks", "leaks"} (with --repair also "before" and "errors")
--repair  fail-safe repair, at every cniVersion: under each host-local store's lock, a
          damaged reservation a live attachment's cached result lists is rewritten, and
          an address is released only when no live attachment and no unreadable cache
          record may hold it; then GC (DEL of the stale attachments, GC to plugins at
          1.1.0+) with those attachments as the valid set; then report again, listing
          what stays and why. Missing reservations and unknown attachments are never repaired.

Exit status 0 when nothing leaked, 1 when something did (after --repair: while anything
found stays unrepaired).

environment: NETCONFPATH (default ${DEFAULT_NET_DIR}), CNI_PATH, CNI_CACHE_DIR
`;

interface LeakArgs {
  readonly net?: string;
  readonly json: boolean;
  readonly repair: boolean;
  readonly rest: string[];
}

function splitArgs(argv: readonly string[]): LeakArgs {
  const rest: string[] = [];
  let net: string | undefined;
  let json = false;
  let repair = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--json") json = true;
    else if (arg === "--repair") repair = true;
    else if (arg.startsWith("--net=")) net = arg.slice("--net=".length);
    else if (arg === "--net") {
      net = argv[++i];
      if (net === undefined) throw new UsageError('flag "--net" needs a value');
    } else rest.push(arg);
  }
  return { ...(net !== undefined ? { net } : {}), json, repair, rest };
}

/** `cni leaks --repair`: the fail-safe repair (leaks/repair.ts) with the real netns check and the runtime's GC. */
async function repair(
  lists: readonly NetworkConfigList[],
  leaks: readonly Leak[],
  runtime: CniRuntime,
): Promise<string[]> {
  const ports = {
    netnsExists: existsSync,
    lockDirs: [lockDirOf(runtime.cacheDir)],
    gc: (list: NetworkConfigList, validAttachments: { containerID: string; ifname: string }[]) =>
      runtime.gcNetworkList(list, { validAttachments }),
  };
  return repairNetworks(lists, await networkStates(lists, runtime), leaks, ports);
}

/** The leaks verb. */
export const verb: Verb = {
  summary: "report stale cache entries and leaked host-local addresses; --repair GCs them",
  help,
  run: async (io) => {
    let args: LeakArgs;
    try {
      args = splitArgs(io.argv);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      io.stderr(`${err.message}\n\n${help}`);
      return 2;
    }
    let code = 0;
    // runVerb parses the cnitool flags (--cache-dir, --timeout) of what is left.
    const status = await runVerb({ ...io, argv: args.rest }, help, async (common) => {
      if (common.positionals.length > 0) throw new UsageError(`unexpected argument "${common.positionals[0]}"`);
      const dir = io.env.NETCONFPATH || DEFAULT_NET_DIR;
      const found =
        args.net !== undefined ? { lists: [await loadNetwork(dir, args.net)], warnings: [] } : await networksIn(dir);
      for (const w of found.warnings) io.stderr(`warning: ${w}\n`);
      const runtime = runtimeFor(io, common);
      let leaks = await scan(found.lists, runtime);
      const before = leaks;
      let errors: string[] = [];
      if (args.repair && leaks.length > 0) {
        if (!args.json) io.stdout(`${leakTable(leaks)}${leakSummary(leaks, found.lists.length)}\nrepairing...\n\n`);
        errors = await repair(found.lists, leaks, runtime);
        for (const e of errors) io.stderr(`repair failed: ${e}\n`);
        leaks = await scan(found.lists, runtime);
      }
      const networks = found.lists.map((l) => l.name);
      if (args.json) {
        io.stdout(`${JSON.stringify({ networks, ...(args.repair ? { before, errors } : {}), leaks }, null, 2)}\n`);
      } else {
        const left = args.repair && before.length > 0 && leaks.length > 0 ? "not repaired (see WHY):\n" : "";
        io.stdout(`${left}${leaks.length > 0 ? leakTable(leaks) : ""}${leakSummary(leaks, networks.length)}`);
      }
      code = leaks.length > 0 || errors.length > 0 ? 1 : 0;
    });
    return status !== 0 ? status : code;
  },
};
