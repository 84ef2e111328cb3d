/**
 * Config problems as data (a JSON path and the upstream text) and their one conversion to
 * a `CniError` at the edge: `<file>: <path>: <upstream message>`.
 */
import { CniError, ErrorCode } from "@tscni/spec";

/** A JSON path: object keys and array indexes from the document root. */
export type JsonPath = readonly (string | number)[];

/** One problem found in a config document. */
export interface ConfigIssue {
  /** 6 when the bytes are not JSON, 7 when the JSON is not a valid config. */
  readonly code: typeof ErrorCode.DecodingFailure | typeof ErrorCode.InvalidNetworkConfig;
  /** Where in the document: `[]` for the document itself. */
  readonly path: JsonPath;
  /** The upstream libcni text, e.g. `error parsing configuration list: no name`. */
  readonly message: string;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Formats a JSON path as a reader would write it in JavaScript.
 *
 * @example formatPath(["plugins", 1, "type"]) // "plugins[1].type"
 */
export function formatPath(path: JsonPath): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (IDENT.test(seg)) out += out === "" ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** The full message of an issue: the file (when known), the JSON path (when any), the text. */
export function issueText(issue: ConfigIssue, source?: string): string {
  const where = formatPath(issue.path);
  return [source, where, issue.message].filter((part) => part !== undefined && part !== "").join(": ");
}

/** Turns an issue into the one error class of the edge. */
export function issueToError(issue: ConfigIssue, source?: string): CniError {
  return new CniError(issue.code, issueText(issue, source));
}

/** An invalid-config issue (code 7). */
export function invalid(path: JsonPath, message: string): ConfigIssue {
  return { code: ErrorCode.InvalidNetworkConfig, path, message };
}

/** Prefixes every issue's message and path, as libcni wraps a nested error. */
export function nestIssues(issues: readonly ConfigIssue[], prefix: JsonPath, messagePrefix: string): ConfigIssue[] {
  return issues.map((i) => ({ code: i.code, path: [...prefix, ...i.path], message: `${messagePrefix}${i.message}` }));
}
