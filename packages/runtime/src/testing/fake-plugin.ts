/**
 * A multi-purpose fake CNI plugin for tests, run as a real process. Its `fake` config key
 * drives it: it records every call (command, env, stdin) as a JSON line in `fake.log` (or
 * `$FAKE_LOG`), answers as `fake.answer[<COMMAND>]` says, and otherwise behaves like a
 * well-mannered chained plugin: ADD returns the prevResult with one interface named after
 * `fake.tag` appended; other commands succeed silently.
 */
import { appendFileSync } from "node:fs";

/** One scripted answer of the fake plugin. */
export interface FakeAnswer {
  stdout?: string;
  stderr?: string;
  exit?: number;
  sleepMs?: number;
}

/** The `fake` key of the fake plugin's config. */
export interface FakeSpec {
  log?: string;
  tag?: string;
  answer?: Record<string, FakeAnswer>;
}

/** One recorded call. */
export interface FakeCall {
  command: string;
  tag: string;
  env: Record<string, string>;
  /** The parsed stdin, or the raw text when it is not JSON. */
  stdin: unknown;
}

const text = await new Response(Bun.stdin.stream()).text();
let conf: Record<string, unknown> = {};
let stdin: unknown = text;
try {
  stdin = JSON.parse(text);
  if (stdin !== null && typeof stdin === "object") conf = stdin as Record<string, unknown>;
} catch {
  // VERSION probes and broken requests are recorded raw
}
const fake = (conf.fake ?? {}) as FakeSpec;
const command = process.env.CNI_COMMAND ?? "";
const tag = fake.tag ?? String(conf.type ?? "fake");
const env: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env))
  if (v !== undefined && (k.startsWith("CNI_") || k.startsWith("FAKE_"))) env[k] = v;
const log = fake.log ?? process.env.FAKE_LOG;
if (log !== undefined) appendFileSync(log, `${JSON.stringify({ command, tag, env, stdin } satisfies FakeCall)}\n`);

const answer = fake.answer?.[command];
if (answer !== undefined) {
  if (answer.sleepMs !== undefined) await Bun.sleep(answer.sleepMs);
  if (answer.stderr !== undefined) process.stderr.write(answer.stderr);
  if (answer.stdout !== undefined) process.stdout.write(answer.stdout);
  process.exit(answer.exit ?? 0);
}
if (command === "ADD") {
  const prev = (conf.prevResult ?? {}) as Record<string, unknown>;
  const interfaces = Array.isArray(prev.interfaces) ? prev.interfaces : [];
  process.stdout.write(
    JSON.stringify({ ...prev, cniVersion: conf.cniVersion, interfaces: [...interfaces, { name: tag }] }),
  );
} else if (command === "VERSION") {
  process.stdout.write(
    JSON.stringify({ cniVersion: "1.1.0", supportedVersions: ["0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"] }),
  );
}
