/**
 * Differential testing of our plugins against the reference plugins (/usr/lib/cni): two
 * twin worlds (one "host" namespace and N containers each, real kernel), the same request
 * sent to `/usr/lib/cni/<p>` in one and to `dist/bin/<p>` in the other, and both answers
 * and both kernels reduced to what must be equal: random parts (MACs, host veth names,
 * namespace paths, data dirs) replaced by placeholders.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { World } from "../e2e/harness.ts";
import { OUR_BIN_DIR, REFERENCE_PLUGINS, run } from "./_reference.ts";

/** Which implementation a side runs. */
export type Side = "reference" | "ours";
/** Both sides, reference first. */
export const SIDES: readonly Side[] = ["reference", "ours"];

/** One side of a twin: its plugin directory, namespaces and IPAM data dir. */
export interface SideCtx {
  side: Side;
  bin: string;
  world: World;
  dataDir: string;
  /** CNI_NETNS of container `i`. */
  netns(i: number): string;
  /** CNI_NETNS of the namespace the plugin runs in (the "host"). */
  hostPath: string;
}

/** Where CNI_NETNS points: a container's index, the plugin's own namespace, a path that does not exist, or a raw value. */
export type NetnsRef = number | "host" | "missing" | { raw: string };

/** A path no namespace has; the same text on both sides. */
export const MISSING_NETNS = "/var/run/netns/tscni-twin-absent";

/** One request, sent alike to both sides. */
export interface Req {
  plugin: string;
  /** CNI_COMMAND; `null` leaves it unset. */
  command: string | null;
  containerID?: string | null;
  netns?: NetnsRef | null;
  ifName?: string | null;
  args?: string | null;
  /** CNI_PATH; default the side's plugin directory, `null` unset. */
  path?: string | null;
  /** More variables; `null` removes one. */
  env?: Record<string, string | null>;
  /** stdin: an object (JSON-encoded) or raw text, built per side (for its data dir). */
  config: (s: SideCtx) => unknown;
}

/** What one side answered, reduced to what both must share. */
export interface Answer {
  exit: number;
  /** The error's code, msg and details (details only when the reference has any). */
  error?: { code: unknown; msg: unknown; details?: unknown };
  /** The parsed result with random parts replaced. */
  result?: unknown;
  /** stdout that is not JSON, verbatim (normalised). */
  text?: string;
}

function sideEnv(s: SideCtx, req: Req): Record<string, string> {
  const env: Record<string, string | null | undefined> = {
    CNI_COMMAND: req.command,
    CNI_CONTAINERID: req.containerID === undefined ? "ctr-1" : req.containerID,
    CNI_NETNS: req.netns === undefined ? s.netns(0) : req.netns === null ? null : netnsPath(s, req.netns),
    CNI_IFNAME: req.ifName === undefined ? "eth0" : req.ifName,
    CNI_ARGS: req.args === undefined ? "" : req.args,
    CNI_PATH: req.path === undefined ? s.bin : req.path,
    ...req.env,
  };
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== null && v !== undefined) out[k] = v;
  return out;
}

/** The CNI_NETNS text of a reference on side `s`. */
export function netnsPath(s: SideCtx, ref: NetnsRef): string {
  if (typeof ref === "number") return s.netns(ref);
  if (ref === "host") return s.hostPath;
  if (ref === "missing") return MISSING_NETNS;
  return ref.raw;
}

/** Replaces a side's random or per-side parts of a text by placeholders. */
export function normalizeText(s: SideCtx, text: string): string {
  let out = text;
  s.world.containers.forEach((_, i) => {
    out = out.replaceAll(s.netns(i), `<c${i}>`);
  });
  out = out.replaceAll(s.hostPath, "<host>").replaceAll(s.dataDir, "<data>").replaceAll(s.bin, "<bin>");
  out = out.replaceAll(s.world.host, "<hostns>");
  s.world.containers.forEach((c, i) => {
    out = out.replaceAll(c, `<c${i}ns>`);
  });
  out = out.replace(/\bveth[0-9a-f]{8}\b/g, "veth*");
  // MACs vary; the loopback's all-zero one does not.
  out = out.replace(/\b(?!00:00:00:00:00:00\b)[0-9a-f]{2}(:[0-9a-f]{2}){5}\b/gi, "<mac>");
  out = out.replace(/\bfe80::[0-9a-f:]+/g, "fe80::<ll>");
  return out;
}

function reduce(s: SideCtx, out: { code: number; stdout: string }): Answer {
  const text = normalizeText(s, out.stdout).trim();
  if (text === "") return { exit: out.code };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { exit: out.code, text };
  }
  if (out.code !== 0 && value !== null && typeof value === "object" && "code" in value) {
    const e = value as { code: unknown; msg: unknown; details?: unknown };
    return {
      exit: out.code,
      error: {
        code: e.code,
        msg: e.msg,
        ...(e.details !== undefined && e.details !== "" ? { details: e.details } : {}),
      },
    };
  }
  return { exit: out.code, result: value };
}

/** Two twin worlds, torn down together by `close()`. */
export class Twin {
  readonly sides: Record<Side, SideCtx>;

  private constructor(sides: Record<Side, SideCtx>) {
    this.sides = sides;
  }

  /** Creates both worlds with `containers` container namespaces each. */
  static async create(purpose: string, containers: number): Promise<Twin> {
    const made: World[] = [];
    try {
      const ctx = async (side: Side): Promise<SideCtx> => {
        const world = await World.create(`${purpose}-${side === "reference" ? "r" : "o"}`, containers);
        made.push(world);
        const dataDir = join(world.dir, "ipam");
        mkdirSync(dataDir, { recursive: true });
        return {
          side,
          bin: side === "reference" ? REFERENCE_PLUGINS : OUR_BIN_DIR,
          world,
          dataDir,
          netns: (i) => world.netns(i),
          hostPath: `/var/run/netns/${world.host}`,
        };
      };
      const [reference, ours] = await Promise.all([ctx("reference"), ctx("ours")]);
      return new Twin({ reference, ours });
    } catch (err) {
      await Promise.all(made.map((w) => w.close()));
      throw err;
    }
  }

  /** Runs `req` on one side, inside its host namespace. */
  async callSide(s: SideCtx, req: Req): Promise<Answer & { raw: string; stderr: string }> {
    const config = req.config(s);
    const stdin = typeof config === "string" ? config : JSON.stringify(config);
    const out = await run(["ip", "netns", "exec", s.world.host, join(s.bin, req.plugin)], {
      env: sideEnv(s, req),
      stdin,
    });
    return { ...reduce(s, out), raw: out.stdout, stderr: out.stderr };
  }

  /**
   * Runs `req` on both sides at once and returns both answers, comparable, each with the
   * stdout it reduces (a later request's prevResult).
   */
  async call(req: Req): Promise<Record<Side, Answer & { raw: string }>> {
    const [reference, ours] = await Promise.all(SIDES.map((side) => this.callSide(this.sides[side], req)));
    return {
      reference: { ...comparable(reference!, reference!), raw: reference!.raw },
      ours: { ...comparable(ours!, reference!), raw: ours!.raw },
    };
  }

  /** Runs a shell command in a namespace of each side; `ns` picks it per side. */
  async sh(ns: (s: SideCtx) => string, cmd: string): Promise<void> {
    await Promise.all(SIDES.map((side) => run(["ip", "netns", "exec", ns(this.sides[side]), "sh", "-c", cmd])));
  }

  /** Deletes both worlds (every namespace and temp dir). */
  async close(): Promise<void> {
    await Promise.all(SIDES.map((side) => this.sides[side].world.close()));
  }
}

/**
 * An answer in the form compared: our error details count only where the reference has
 * details too (ours may say more), and our `cniVersion` in error objects is not compared
 * (E-1/E-2 [DIFF], README "Choices").
 */
function comparable(a: Answer, ref: Answer): Answer {
  const { exit, error, result, text } = a;
  const out: Answer = { exit };
  if (error !== undefined) {
    out.error = { code: error.code, msg: error.msg };
    if (ref.error?.details !== undefined && error.details !== undefined) out.error.details = error.details;
  }
  if (result !== undefined) out.result = result;
  if (text !== undefined) out.text = text;
  return out;
}
