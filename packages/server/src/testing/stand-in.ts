/**
 * Starts `stand-in-daemon.ts` in a child process and waits until it listens.
 */
import { join } from "node:path";

/** A running stand-in daemon: stop it when done. */
export interface StandIn {
  readonly socketPath: string;
  stop(): Promise<void>;
}

/** Serves `body` (or `"echo"`: the request's length) with `status` on `socketPath`, from another process. */
export async function standInDaemon(socketPath: string, status: number, body: string): Promise<StandIn> {
  const arg = body === "echo" ? "echo" : Buffer.from(body).toString("base64");
  const proc = Bun.spawn(
    [process.execPath, join(import.meta.dir, "stand-in-daemon.ts"), socketPath, String(status), arg],
    {
      stdout: "pipe",
      stderr: "inherit",
    },
  );
  const reader = proc.stdout.getReader();
  const first = await reader.read();
  reader.releaseLock();
  if (first.done || !new TextDecoder().decode(first.value).startsWith("ready")) {
    proc.kill();
    throw new Error("the stand-in daemon did not start");
  }
  return {
    socketPath,
    stop: async () => {
      proc.kill();
      await proc.exited;
    },
  };
}
