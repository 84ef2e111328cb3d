export { IGNORE_UNKNOWN, parseCniArgs } from "./load-args.ts";
export { argValue, cnitoolArgs, lenientCniArgs, splitCniArgs } from "./split.ts";
export type { CniArgsParse } from "./split.ts";
