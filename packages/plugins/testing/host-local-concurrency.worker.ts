/**
 * A child process of concurrency.test.ts: waits for the shared start time, then runs the
 * host-local entry once with this process's environment and stdin, as a runtime would.
 */
import { main } from "../host-local/index.ts";

const startAt = Number(process.env.TSCNI_START_AT ?? 0);
if (startAt > Date.now()) await Bun.sleep(startAt - Date.now());
process.exitCode = await main({
  env: process.env,
  readStdin: async () => new Uint8Array(await Bun.stdin.arrayBuffer()),
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
});
