/**
 * The file in which ADD keeps a link's original attributes for DEL, in the reference's
 * place and format (`createBackup`/`restoreBackup`), so either implementation's DEL
 * undoes the other's ADD: `<dataDir>/<containerID>_<ifName>.json`, Go's
 * `json.MarshalIndent(configToRestore, "", " ")` of `mac`, `promisc`, `mtu`, `allmulti`,
 * `txQLen`, each left out when unset (`omitempty`), directory mode 0600, file mode 0600.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";

/** What DEL restores; a field is present only when ADD changed that attribute. */
export interface Backup {
  mac?: string;
  promisc?: boolean;
  mtu?: number;
  allmulti?: boolean;
  txQLen?: number;
}

/** The backup file of one attachment. */
export function backupPath(dataDir: string, containerID: string, ifName: string): string {
  return join(dataDir, `${containerID}_${ifName}.json`);
}

/** The file's bytes as Go writes them: one-space indent, fields in struct order, omitempty. */
export function formatBackup(b: Backup): string {
  const ordered: Backup = {};
  if (b.mac !== undefined && b.mac !== "") ordered.mac = b.mac;
  if (b.promisc !== undefined) ordered.promisc = b.promisc;
  if (b.mtu !== undefined && b.mtu !== 0) ordered.mtu = b.mtu;
  if (b.allmulti !== undefined) ordered.allmulti = b.allmulti;
  if (b.txQLen !== undefined) ordered.txQLen = b.txQLen;
  return JSON.stringify(ordered, null, 1);
}

/** Writes the backup, creating the directory as the reference does; errors in its words. */
export function writeBackup(path: string, b: Backup, ifName: string): void {
  const dir = join(path, "..");
  try {
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o600 });
  } catch (err) {
    throw new Error(`failed to create backup directory: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    writeFileSync(path, formatBackup(b), { mode: 0o600 });
  } catch (err) {
    throw new Error(`failed to save file ${ifName}.json: ${err instanceof Error ? err.message : String(err)}`);
  }
}

const BackupSchema = v.looseObject({
  mac: v.nullish(v.string()),
  promisc: v.nullish(v.boolean()),
  mtu: v.nullish(v.pipe(v.number(), v.integer())),
  allmulti: v.nullish(v.boolean()),
  txQLen: v.nullish(v.pipe(v.number(), v.integer())),
});

/**
 * The backup of an attachment: undefined when there is no file, or when it does not
 * decode (the reference then restores nothing and keeps the file).
 */
export function readBackup(path: string): Backup | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = v.safeParse(BackupSchema, raw);
  if (!parsed.success) return undefined;
  const o = parsed.output;
  const out: Backup = {};
  if (o.mac !== undefined && o.mac !== null && o.mac !== "") out.mac = o.mac;
  if (o.promisc !== undefined && o.promisc !== null) out.promisc = o.promisc;
  if (o.mtu !== undefined && o.mtu !== null && o.mtu !== 0) out.mtu = o.mtu;
  if (o.allmulti !== undefined && o.allmulti !== null) out.allmulti = o.allmulti;
  if (o.txQLen !== undefined && o.txQLen !== null) out.txQLen = o.txQLen;
  return out;
}

/** Removes the backup once everything is restored; a file already gone is fine. */
export function removeBackup(path: string): void {
  rmSync(path, { force: true });
}
