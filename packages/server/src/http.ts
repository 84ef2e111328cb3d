/**
 * The daemon's one HTTP endpoint (BRIEF seed design 3): `POST /cni` with a wire request;
 * HTTP 200 with the result, or HTTP 400 with the CNI error (its code kept) as the message.
 */
import type { PodNetworkManager } from "@tscni/runtime";
import { CniError, ErrorCode } from "@tscni/spec";
import { parseCniCall } from "./call.ts";
import type { CniCall } from "./call.ts";
import type { CommandGate } from "./gate.ts";
import { runCniCall } from "./handle.ts";
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

/** What the endpoint serves with: the manager, the GC gate, and where request lines go. */
export interface HttpContext {
  readonly manager: PodNetworkManager;
  readonly gate?: CommandGate;
  readonly log?: (line: string) => void;
}

/**
 * Answers one HTTP request against the manager's default network.
 *
 * @example await handleHttp(new Request("http://localhost/cni", { method: "POST", body }), { manager, gate })
 */
export async function handleHttp(req: Request, ctx: HttpContext): Promise<Response> {
  const { manager, gate, log } = ctx;
  const path = new URL(req.url).pathname;
  if (path !== CNI_ENDPOINT) return new Response(`no endpoint ${path}; POST ${CNI_ENDPOINT}\n`, { status: 404 });
  if (req.method !== "POST") return new Response(`method ${req.method} not allowed; POST ${CNI_ENDPOINT}\n`, { status: 405, headers: { allow: "POST" } });
  const decoded = decodeRequest(await req.text());
  if (!decoded.ok) {
    log?.(`rejected a request: ${decoded.problem}`);
    return json({ error: { code: ErrorCode.DecodingFailure, msg: decoded.problem } }, 400);
  }
  let call: CniCall | undefined;
  try {
    call = parseCniCall(decoded.value);
    const result = await runCniCall(manager, call, gate);
    log?.(`${describe(call, undefined)}: ok`);
    return json(result !== undefined ? { result } : {}, 200);
  } catch (err) {
    const e = CniError.from(err);
    log?.(`${describe(call, decoded.value.env.CNI_COMMAND)}: ${e.toString()}`);
    const details = e.details !== "" ? { details: e.details } : {};
    return json({ error: { code: e.code, msg: e.msg, ...details } }, 400);
  }
}
