/**
 * Test fixture: applies the JSON batch on stdin with the driver argv[2] names (`setns`,
 * `nsenter` or `netlink`; HOST = the namespace this process runs in) and prints the HOST
 * links as JSON. Tests run it under `ip netns exec <throwaway>` so that HOST is never the
 * machine's own namespace.
 */
import { KernelError } from "../kernel.ts";
import { parseKernelBatch } from "../schema.ts";
import { createNetlinkKernel } from "../netlink/driver.ts";
import { createLinuxKernel } from "../linux/driver.ts";

const parsed = parseKernelBatch(JSON.parse(await Bun.stdin.text()));
if (!parsed.ok) throw new Error(parsed.issues.join("; "));
const mode = process.argv[2];
const k =
  mode === "netlink"
    ? createNetlinkKernel()
    : createLinuxKernel({ netnsSwitch: mode === "nsenter" ? "nsenter" : "setns" });
try {
  await k.apply(parsed.batch);
  process.stdout.write(JSON.stringify(await k.links("host")));
} catch (e) {
  if (!(e instanceof KernelError)) throw e;
  process.stdout.write(JSON.stringify({ kind: e.kind, opIndex: e.opIndex, message: e.message }));
}
