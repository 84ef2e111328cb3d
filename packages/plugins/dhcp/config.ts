/**
 * The `dhcp` ipam section (the reference's main.go `IPAMConfig`): the daemon's socket,
 * the options to `provide` and `request`, and the routes' `priority`. Both the plugin
 * (for the socket path) and the daemon (for the rest) read it from the same stdin.
 */
import * as v from "valibot";
import type { ProvideOption, RequestOption } from "./options.ts";
import { DEFAULT_SOCKET } from "./wire.ts";

const Provide = v.object({ option: v.string(), value: v.optional(v.string()), fromArg: v.optional(v.string()) });
const Request = v.object({ option: v.optional(v.string()), skipDefault: v.optional(v.boolean()) });

const ConfSchema = v.object({
  name: v.optional(v.string(), ""),
  ipam: v.optional(
    v.object({
      daemonSocketPath: v.optional(v.string(), ""),
      provide: v.optional(v.nullable(v.array(Provide)), []),
      request: v.optional(v.nullable(v.array(Request)), []),
      priority: v.optional(v.pipe(v.number(), v.integer()), 0),
    }),
    {},
  ),
});

/** What the daemon and the plugin need of a network config. */
export interface DhcpConf {
  name: string;
  socketPath: string;
  provide: ProvideOption[];
  request: RequestOption[];
  priority: number;
}

/** Parses a network config's bytes; throws with the reference's prefix on bad JSON or types. */
export function parseDhcpConf(stdin: string): DhcpConf {
  let raw: unknown;
  try {
    raw = JSON.parse(stdin);
  } catch (err) {
    throw new Error(`error parsing netconf: ${(err as Error).message}`);
  }
  const r = v.safeParse(ConfSchema, raw);
  if (!r.success) {
    const issue = r.issues[0];
    const path = issue.path?.map((p) => String(p.key)).join(".") ?? "";
    throw new Error(`error parsing netconf: ${path === "" ? "" : `${path}: `}${issue.message}`);
  }
  const ipam = r.output.ipam;
  return {
    name: r.output.name,
    socketPath: ipam.daemonSocketPath === "" ? DEFAULT_SOCKET : ipam.daemonSocketPath,
    provide: ipam.provide ?? [],
    request: ipam.request ?? [],
    priority: ipam.priority,
  };
}
