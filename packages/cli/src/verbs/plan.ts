/**
 * `cni plan`: print kernel operations as the iproute2 script the Linux driver would run
 * (ARCHITECTURE.md "The kernel seam": printing the batch is a free dry run). A plan comes
 * from a {@link PlanSource}: a JSON batch (`--batch FILE`, or stdin), or the ADD of a
 * network into a namespace (`cni plan <network> <netns>`, computed by the plugins' own
 * planners on a read of the kernel, IPAM peeked: nothing changes).
 */
import { KernelError, parseKernelBatch, renderBatch, type KernelBatch } from "@tscni/kernel";
import type { CommandIO, Verb } from "../io.ts";
import { renderTx, type FirewallTx } from "@tscni/firewall";

/** The command line of `cni plan`, parsed. */
export interface PlanArgs {
  /** `--batch FILE` (`-` for stdin). */
  batch?: string;
  /** `--host-ref PATH`: how container namespaces name the host one in the script. */
  hostRef?: string;
  /** `-i/--ifname NAME`: the container interface of a network plan. */
  ifName?: string;
  /** Positional arguments: `<network> <netns>`, or none. */
  positional: string[];
}

/** Where a plan's batch comes from: resolves to the batch, or to an error message. */
export type PlanSource = (
  io: CommandIO,
) => Promise<{ batch: KernelBatch; notes?: string[]; firewall?: FirewallTx } | { error: string }>;

const HELP = `usage: cni plan [--batch FILE] [--host-ref PATH]
       cni plan [-i IFNAME] [--host-ref PATH] <network> <netns>

Print a batch of kernel operations as the iproute2 script the driver would run, one
block per namespace run, without touching the kernel. With a network (from NETCONFPATH,
default /etc/cni/net.d) and a namespace path: the operations an ADD would make, from a
read of the kernel and the next host-local address (peeked, not reserved), then the
firewall changes (ipMasq) as iptables/nft commands.

  --batch FILE     a JSON array of kernel operations ("-" or no option: stdin)
  -i, --ifname     the container interface of a network plan (default $CNI_IFNAME, else eth0)
  --host-ref PATH  how other namespaces name the host namespace in "netns" arguments
                   (default /proc/$$/ns/net: the shell running the script)
`;

/** Parses argv; returns a usage error message instead of throwing. */
export function parsePlanArgs(argv: readonly string[]): PlanArgs | string {
  const out: PlanArgs = { positional: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? "";
    const value = (): string | undefined => argv[++i];
    if (a === "--batch" || a === "--host-ref" || a === "-i" || a === "--ifname") {
      const v = value();
      if (v === undefined) return `option "${a}" needs a value`;
      if (a === "--batch") out.batch = v;
      else if (a === "--host-ref") out.hostRef = v;
      else out.ifName = v;
    } else if (a.startsWith("--ifname=")) out.ifName = a.slice("--ifname=".length);
    else if (a.startsWith("--batch=")) out.batch = a.slice("--batch=".length);
    else if (a.startsWith("--host-ref=")) out.hostRef = a.slice("--host-ref=".length);
    else if (a.startsWith("-") && a !== "-") return `unknown option "${a}"`;
    else out.positional.push(a);
  }
  return out;
}

/** A source reading a JSON batch from a file or stdin and validating it (KernelBatchSchema). */
export function batchSource(file: string | undefined): PlanSource {
  return async (io) => {
    let text: string;
    try {
      text =
        file === undefined || file === "-"
          ? new TextDecoder().decode(await io.readStdin())
          : await Bun.file(file).text();
    } catch (e) {
      return { error: `cannot read "${file}": ${(e as Error).message}` };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      return { error: `batch is not JSON: ${(e as Error).message}` };
    }
    const parsed = parseKernelBatch(json);
    return parsed.ok ? { batch: parsed.batch } : { error: `invalid batch:\n  ${parsed.issues.join("\n  ")}` };
  };
}

/** Chooses the source for the parsed arguments, or returns a usage error. */
export function pickSource(args: PlanArgs): PlanSource | string {
  if (args.positional.length === 0) return batchSource(args.batch);
  const [network, netns, extra] = args.positional;
  if (network !== undefined && netns !== undefined && extra === undefined && args.batch === undefined)
    return networkSource(network, netns, args.ifName);
  return `unexpected argument "${args.positional[args.positional.length === 1 ? 0 : 2] ?? args.positional[0]}"`;
}

/** A source computing the ADD of `network` into `netns` (`_plan-network.ts`). */
export function networkSource(network: string, netns: string, ifName?: string): PlanSource {
  return async (io) => {
    const { planNetwork } = await import("./_plan-network.ts");
    try {
      const plan = await planNetwork(network, netns, { env: io.env, ...(ifName !== undefined ? { ifName } : {}) });
      return { batch: plan.ops, notes: plan.notes, firewall: plan.firewall };
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  };
}

async function run(io: CommandIO): Promise<number> {
  const args = parsePlanArgs(io.argv);
  const source = typeof args === "string" ? args : pickSource(args);
  if (typeof source === "string") {
    io.stderr(`cni plan: ${source}\n\n${HELP}`);
    return 2;
  }
  const got = await source(io);
  if ("error" in got) {
    io.stderr(`cni plan: ${got.error}\n`);
    return 1;
  }
  for (const note of got.notes ?? []) io.stdout(`# ${note}\n`);
  try {
    io.stdout(
      renderBatch(got.batch, typeof args === "string" || args.hostRef === undefined ? {} : { hostRef: args.hostRef }),
    );
    // Firewall changes come after the kernel's, as the plugins apply them (§8.1 step 9).
    if (got.firewall !== undefined && got.firewall.length > 0)
      io.stdout(`# firewall\n${renderTx(got.firewall).join("\n")}\n`);
  } catch (e) {
    if (!(e instanceof KernelError)) throw e;
    io.stderr(`cni plan: op ${e.opIndex ?? "?"}: ${e.message}\n`);
    return 1;
  }
  return 0;
}

/** The `plan` verb. */
export const verb: Verb = { summary: "print kernel operations as the iproute2 script they amount to", help: HELP, run };
