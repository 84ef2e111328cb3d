/**
 * The `cni` command's verbs: a static table of lazy loaders (no import-time
 * registration, and nothing heavy loads until a verb is chosen).
 */
import type { Verb } from "./io.ts";

/** Verb name to a loader of its module (each module exports `verb`). */
export const VERBS: Readonly<Record<string, { summary: string; load: () => Promise<{ verb: Verb }> }>> = {
  convert: { summary: "convert a result on stdin to another spec version", load: () => import("./verbs/convert.ts") },
  plan: {
    summary: "print kernel operations as the iproute2 script they amount to",
    load: () => import("./verbs/plan.ts"),
  },
  install: {
    summary: "copy this binary into a plugin directory and link every plugin name to it",
    load: () => import("./verbs/install.ts"),
  },
  conformance: {
    summary: "judge a directory of plugins against the CNI spec",
    load: () => import("./verbs/conformance.ts"),
  },
  add: { summary: "attach a netns to a network (cnitool add)", load: () => import("./verbs/add.ts") },
  check: {
    summary: "check an attachment against its cached result (cnitool check)",
    load: () => import("./verbs/check.ts"),
  },
  del: { summary: "detach a netns from a network (cnitool del)", load: () => import("./verbs/del.ts") },
  gc: {
    summary: "delete a network's cached attachments, then GC its plugins (cnitool gc)",
    load: () => import("./verbs/gc.ts"),
  },
  status: {
    summary: "ask a network's plugins whether they are ready (cnitool status)",
    load: () => import("./verbs/status.ts"),
  },
  leaks: {
    summary: "report stale cached attachments and leaked host-local addresses; --repair GCs them",
    load: () => import("./verbs/leaks.ts"),
  },
  cache: { summary: "list or show cached attachments", load: () => import("./verbs/cache.ts") },
  lint: {
    summary: "explain a config directory: which file wins, what is wrong, and where",
    load: () => import("./verbs/lint.ts"),
  },
  dhcp: {
    summary: "the DHCP IPAM daemon: `cni dhcp daemon [flags]` serves the dhcp plugin on /run/cni/dhcp.sock",
    load: () => import("./verbs/dhcp.ts"),
  },
  daemon: {
    summary: "serve CNI requests from the cni-shim plugin on a unix socket",
    load: () => import("./verbs/daemon.ts"),
  },
  fuzz: {
    summary: "fuzz our config parsers and result conversion; replay a saved failure",
    load: () => import("./verbs/fuzz.ts"),
  },
};
