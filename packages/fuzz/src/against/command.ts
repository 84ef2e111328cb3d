/**
 * The other implementation of a differential run (issue 15, `--against CMD`): any command,
 * run through `sh -c`, that reads one JSON request per line on stdin and prints one JSON
 * answer per line. A batch of cases goes through ONE process; shrinking asks one line at
 * a time. When the process dies part way (a crash on one input), the line it died on is
 * answered `broken` with the reason, and the rest of the batch goes to a new process.
 */
import { type Answer, readAnswer } from "./answer.ts";

function once(cmd: string, requests: readonly unknown[]): { lines: string[]; died?: string } {
  const input = `${requests.map((r) => JSON.stringify(r)).join("\n")}\n`;
  const proc = Bun.spawnSync(["sh", "-c", cmd], {
    stdin: new TextEncoder().encode(input),
    stdout: "pipe",
    stderr: "pipe",
    env: process.env,
  });
  const lines = proc.stdout.toString().split("\n");
  if (lines.at(-1) === "") lines.pop();
  if (proc.exitCode === 0) return { lines };
  const stderr = proc.stderr.toString().trim();
  // The first line of a crash says what it was (a Go panic's message, a signal).
  const first = stderr.split("\n").find((l) => l.trim() !== "") ?? "";
  return { lines, died: `exit ${proc.exitCode ?? proc.signalCode ?? "?"}: ${first.slice(0, 200)}` };
}

/** The other side of a differential run: what it is called, and its answers to a batch of requests. */
export interface Oracle {
  /** The command (recorded in replay files), or a name for an in-process stand-in. */
  readonly command: string;
  ask(requests: readonly unknown[]): Answer[];
}

/** The oracle that runs `cmd` (through `sh -c`). */
export function commandOracle(cmd: string): Oracle {
  return { command: cmd, ask: (requests) => askCommand(cmd, requests) };
}

/** Asks `cmd` for the answers to `requests`: one process, another after each crash. */
export function askCommand(cmd: string, requests: readonly unknown[]): Answer[] {
  const answers: Answer[] = [];
  while (answers.length < requests.length) {
    const { lines, died } = once(cmd, requests.slice(answers.length));
    const start = answers.length;
    for (const line of lines) if (answers.length < requests.length) answers.push(readAnswer(line));
    if (answers.length === requests.length) break;
    answers.push({ broken: `no answer line (${died ?? "exit 0 before the end of its input"})` });
    // A process that answered nothing at all is no use to ask again line by line.
    if (lines.length === 0 && died === undefined && start === 0) {
      while (answers.length < requests.length) answers.push({ broken: "no answer line" });
    }
  }
  return answers;
}
