/** Running a tool that must succeed: its stdout, or a {@link FirewallError} with its message. */
import { FirewallError } from "../firewall.ts";
import type { ToolExec } from "./exec.ts";

/** Runs argv through `exec`; throws FirewallError with the tool's stderr when it fails. */
export async function runOrThrow(exec: ToolExec, argv: readonly string[], stdin?: string): Promise<string> {
  const r = await exec(argv, stdin);
  if (r.exitCode !== 0) throw new FirewallError(`${argv.join(" ")}: ${(r.stderr || r.stdout).trim()}`);
  return r.stdout;
}
