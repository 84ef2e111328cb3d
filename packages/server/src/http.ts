/**
 * The daemon's HTTP endpoints (BRIEF seed design 3, issue 11 item 2): `POST /cni` with a
 * wire request answers HTTP 200 with the result or HTTP 400 with the CNI error (its code
 * kept); `GET /healthz`, `GET /readyz` and `GET /metrics` (Prometheus text) for operators.
 * Every call is logged as one JSON line with its request id and `traceparent`.
 */
import type { PodNetworkManager } from "@tscni/runtime";
import { CniError, ErrorCode } from "@tscni/spec";
import { parseCniCall } from "./call.ts";
import type { CniCall } from "./call.ts";
import type { CommandGate } from "./gate.ts";
import { runCniCall } from "./handle.ts";
import { errorResponse } from "./http-server.ts";
import type { KeyedQueue } from "./keyed-queue.ts";
import { QueueFullError, type Limiter } from "./limiter.ts";
import { logLine, validTraceparent } from "./log.ts";
import { METRICS_CONTENT_TYPE, type DaemonMetrics, type RefusalReason } from "./metrics.ts";
import { poolUsage } from "./pool-usage.ts";
import { CNI_ENDPOINT, decodeRequest } from "./wire.ts";
import type { WireResponse } from "./wire.ts";

function json(body: WireResponse, status: number): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

function describe(call: CniCall | undefined, command: string | undefined): string {
  if (call === undefined) return command ?? "request";
  const pod = call.pod !== undefined ? ` pod ${call.pod.namespace}/${call.pod.name}` : "";
  return call.containerID !== "" ? `${call.command} ${call.containerID} ${call.ifName}${pod}` : call.command;
}

/** What the endpoints serve with: the manager, and the daemon's controls when it has them. */
export interface HttpContext {
  readonly manager: PodNetworkManager;
  /** GC alone, ADD, CHECK and DEL side by side (GC-8). */
  readonly gate?: CommandGate;
  /** Same-container calls one at a time (LC-2). */
  readonly keyed?: KeyedQueue;
  /** The concurrency limit and its queue. */
  readonly limiter?: Limiter;
  readonly metrics?: DaemonMetrics;
  /** True once a drain began: new calls are refused with code 11. */
  readonly draining?: () => boolean;
  /** One structured (JSON) line per call and per refusal. */
  readonly log?: (line: string) => void;
  /** The refusal log, at most one line per reason per second (refusal-log.ts). */
  readonly refusalLog?: (reason: RefusalReason, status: number, msg: string) => void;
}

let sequence = 0;

/** The request's own id (`x-request-id`, when sane) or a new one. */
function requestId(req: Request): string {
  const given = req.headers.get("x-request-id");
  if (given !== null && /^[\w.:-]{1,128}$/.test(given)) return given;
  sequence = (sequence + 1) % 1e9;
  return `${Date.now().toString(36)}-${sequence.toString(36)}`;
}

function probe(req: Request, path: string, ctx: HttpContext): Response | undefined {
  if (req.method !== "GET")
    return new Response(`method ${req.method} not allowed; GET ${path}\n`, { status: 405, headers: { allow: "GET" } });
  if (path === "/healthz") return new Response("ok\n");
  if (path === "/readyz") {
    if (ctx.draining?.() === true) return new Response("draining\n", { status: 503 });
    const network = ctx.manager.defaultNetwork;
    return network !== undefined
      ? new Response(`ready: ${network.list.name}\n`)
      : new Response("network plugin not initialized\n", { status: 503 });
  }
  if (ctx.metrics === undefined) return undefined;
  ctx.metrics.inFlight = ctx.limiter?.running ?? ctx.metrics.inFlight;
  ctx.metrics.queued = ctx.limiter?.queued ?? 0;
  const network = ctx.manager.defaultNetwork;
  return new Response(
    ctx.metrics.render(process.memoryUsage.rss(), network !== undefined ? poolUsage(network.list) : []),
    { headers: { "content-type": METRICS_CONTENT_TYPE } },
  );
}

/** Runs a call under the controls: its container's turn, then a slot, then the GC gate. */
async function controlled(ctx: HttpContext, call: CniCall): ReturnType<typeof runCniCall> {
  const run = (): ReturnType<typeof runCniCall> => {
    const inner = (): ReturnType<typeof runCniCall> => runCniCall(ctx.manager, call, ctx.gate);
    return ctx.limiter !== undefined ? ctx.limiter.run(inner) : inner();
  };
  const attachment = call.command === "ADD" || call.command === "CHECK" || call.command === "DEL";
  // One network (the default), so the container and interface name the attachment.
  return attachment && ctx.keyed !== undefined ? ctx.keyed.run(`${call.containerID}/${call.ifName}`, run) : run();
}

/**
 * Answers one HTTP request.
 *
 * @example await handleHttp(new Request("http://localhost/cni", { method: "POST", body }), { manager, gate })
 */
export async function handleHttp(req: Request, ctx: HttpContext): Promise<Response> {
  const { log, metrics } = ctx;
  const path = new URL(req.url).pathname;
  if (path === "/healthz" || path === "/readyz" || path === "/metrics") {
    const answer = probe(req, path, ctx);
    if (answer !== undefined) return answer;
  }
  if (path !== CNI_ENDPOINT) return new Response(`no endpoint ${path}; POST ${CNI_ENDPOINT}\n`, { status: 404 });
  if (req.method !== "POST")
    return new Response(`method ${req.method} not allowed; POST ${CNI_ENDPOINT}\n`, {
      status: 405,
      headers: { allow: "POST" },
    });
  const id = requestId(req);
  if (ctx.draining?.() === true) {
    metrics?.refuse("draining", ErrorCode.TryAgainLater);
    log?.(logLine("warn", "refused a call: draining", { requestId: id }));
    return errorResponse(503, ErrorCode.TryAgainLater, "the CNI daemon is shutting down; try again later");
  }
  const decoded = decodeRequest(await req.text());
  if (!decoded.ok) {
    metrics?.refuse("malformed", ErrorCode.DecodingFailure);
    // Through the throttled refusal log when there is one: junk must not flood the log.
    if (ctx.refusalLog !== undefined) ctx.refusalLog("malformed", 400, decoded.problem);
    else log?.(logLine("warn", `rejected a request: ${decoded.problem}`, { requestId: id }));
    return json({ error: { code: ErrorCode.DecodingFailure, msg: decoded.problem } }, 400);
  }
  const env = decoded.value.env;
  const traceparent = validTraceparent(req.headers.get("traceparent")) ?? validTraceparent(env.TRACEPARENT);
  const started = performance.now();
  let call: CniCall | undefined;
  const fields = (code?: number) => ({
    requestId: id,
    traceparent,
    verb: call?.command ?? env.CNI_COMMAND,
    containerID: call?.containerID || undefined,
    ifName: call?.ifName,
    pod: call?.pod !== undefined ? `${call.pod.namespace}/${call.pod.name}` : undefined,
    durationMs: Math.round((performance.now() - started) * 100) / 100,
    code,
  });
  try {
    call = parseCniCall(decoded.value);
    const result = await controlled(ctx, call);
    metrics?.observe(call.command, (performance.now() - started) / 1000);
    log?.(logLine("info", `${describe(call, undefined)}: ok`, fields()));
    return json(result !== undefined ? { result } : {}, 200);
  } catch (err) {
    const e = CniError.from(err);
    if (err instanceof QueueFullError) metrics?.refuse("queue-full", e.code);
    else metrics?.observe(call?.command ?? "invalid", (performance.now() - started) / 1000, e.code);
    log?.(logLine("warn", `${describe(call, env.CNI_COMMAND)}: ${e.toString()}`, fields(e.code)));
    const details = e.details !== "" ? { details: e.details } : {};
    if (err instanceof QueueFullError) return errorResponse(503, e.code, e.msg);
    return json({ error: { code: e.code, msg: e.msg, ...details } }, 400);
  }
}
