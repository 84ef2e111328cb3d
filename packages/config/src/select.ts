/**
 * Choosing a network by name from the files of a config directory (§2.7): libcni's
 * `LoadNetworkConf`, pure over the file contents and a drop-in reader.
 */
import { dirname } from "node:path";
import { filesWithExtension } from "./_files.ts";
import { confListFromFile } from "./drop-ins.ts";
import { confToList } from "./conf-to-list.ts";
import { NoConfigsFoundError, NotFoundError } from "./errors.ts";
import { parsePluginConf } from "./plugin-conf.ts";
import type { ConfFile, DropInReader, NetworkConfigList } from "./types.ts";

/**
 * Selects network `name` from `files` (the regular files directly in one directory):
 *
 * 1. the `.conflist` files (exact, case-sensitive extension) in byte order of their paths;
 *    each is parsed with its drop-ins, any error aborts the whole load, the first whose
 *    name matches wins (so a `.conflist` always beats a `.conf`, step 6);
 * 2. else the `.conf`/`.json` files in the same order, each a plugin object (`type`
 *    required, any error aborts), the first match wrapped into a list;
 * 3. else `NoConfigsFoundError` when there is no `.conf`/`.json` file and no `.conflist`
 *    either, otherwise `NotFoundError` (step 5).
 *
 * `dir` names the directory in the errors (default: the first file's directory).
 *
 * @example selectNetwork([{ path: "/d/a.conflist", bytes }], "a").source // "/d/a.conflist"
 */
export function selectNetwork(
  files: readonly ConfFile[],
  name: string,
  dropIns?: DropInReader,
  dir?: string,
): NetworkConfigList {
  const where = dir ?? (files[0] !== undefined ? dirname(files[0].path) : ".");
  const lists = filesWithExtension(files, [".conflist"]);
  for (const file of lists) {
    const list = confListFromFile(file, dropIns);
    if (list.name === name) return list;
  }
  // The deprecated single-plugin files (CF-2).
  const singles = filesWithExtension(files, [".conf", ".json"]);
  if (singles.length === 0) {
    throw lists.length > 0 ? new NotFoundError(where, name) : new NoConfigsFoundError(where);
  }
  for (const file of singles) {
    const conf = parsePluginConf(file.bytes, file.path);
    if (conf.network.name === name) return confToList(conf, file.path);
  }
  throw new NotFoundError(where, name);
}
