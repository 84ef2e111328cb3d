/**
 * Runs a plugin binary the way a runtime does (EX-1): no shell, env + stdin in,
 * stdout, stderr and the exit status out, killed after a timeout.
 */
import type { Outcome } from "./types.ts";

/**
 * Executes `bin` with exactly `env` (plus PATH, so the plugin finds `ip`) and `stdin`.
 *
 * @example await execPlugin("/opt/cni/bin/loopback", { CNI_COMMAND: "VERSION" }, "")
 */
export async function execPlugin(
  bin: string,
  env: Record<string, string>,
  stdin: string,
  timeoutMs = 20_000,
): Promise<Outcome> {
  const proc = Bun.spawn([bin], {
    env: { PATH: process.env.PATH ?? "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", ...env },
    stdin: new TextEncoder().encode(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    proc.kill("SIGKILL");
  }, timeoutMs);
  try {
    const [stdout, stderr, exitCode] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    return { exitCode, stdout, stderr, timedOut };
  } finally {
    clearTimeout(timer);
  }
}
