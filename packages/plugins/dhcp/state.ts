/**
 * The daemon's leases on disk, so that a restarted daemon resumes them instead of
 * orphaning them: one JSON file per lease in the state directory, named by a hash of
 * the client id, written atomically (temp file + rename) at every new ACK and removed on
 * release.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";

/** One persisted lease: who holds it, where, with which options, and the last ACK. */
export const SavedLeaseSchema = v.object({
  clientId: v.string(),
  netns: v.string(),
  ifName: v.string(),
  /** Message options as [code, base64 value] pairs. */
  options: v.array(v.tuple([v.number(), v.string()])),
  broadcast: v.boolean(),
  /** The last ACK, base64. */
  ack: v.string(),
  renewAt: v.number(),
  rebindAt: v.number(),
  expireAt: v.number(),
});

/** A persisted lease. */
export type SavedLease = v.InferOutput<typeof SavedLeaseSchema>;

/** The state directory unless `-statedir` says otherwise. */
export const DEFAULT_STATE_DIR = "/var/lib/cni/dhcp";

function fileOf(dir: string, clientId: string): string {
  return join(dir, `${createHash("sha256").update(clientId).digest("hex").slice(0, 32)}.json`);
}

/** Writes (or replaces) a lease's record. */
export function saveLease(dir: string, lease: SavedLease): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = fileOf(dir, lease.clientId);
  writeFileSync(`${file}.tmp`, JSON.stringify(lease), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

/** Removes a lease's record; nothing there is fine. */
export function forgetLease(dir: string, clientId: string): void {
  rmSync(fileOf(dir, clientId), { force: true });
}

/** Every readable record; unreadable ones are reported through `bad` and skipped. */
export function loadLeases(dir: string, bad: (file: string, why: string) => void): SavedLease[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
  const out: SavedLease[] = [];
  for (const name of names) {
    try {
      const parsed = v.safeParse(SavedLeaseSchema, JSON.parse(readFileSync(join(dir, name), "utf8")));
      if (parsed.success) out.push(parsed.output);
      else bad(name, parsed.issues[0].message);
    } catch (err) {
      bad(name, (err as Error).message);
    }
  }
  return out;
}

/** Map options to their saved form and back. */
export function encodeOptions(m: ReadonlyMap<number, Uint8Array>): [number, string][] {
  return [...m].map(([k, val]) => [k, Buffer.from(val).toString("base64")]);
}

/** The options of a saved lease. */
export function decodeOptions(saved: readonly (readonly [number, string])[]): Map<number, Uint8Array> {
  return new Map(saved.map(([k, b]) => [k, new Uint8Array(Buffer.from(b, "base64"))]));
}
