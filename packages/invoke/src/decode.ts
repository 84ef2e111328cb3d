/**
 * Decoding what a plugin process left behind: the error of a failed run (E-5) and the
 * version of a successful ADD's result (RP-2).
 */
import { CniError, ErrorCode } from "@tscni/spec";
import type { ExecOutcome } from "./exec.ts";
import { goJsonKind, goQuote, parseGoJson } from "@tscni/spec/go";

const decoder = new TextDecoder();

function errorFromStdout(stdout: string): CniError {
  let value: unknown;
  try {
    value = parseGoJson(stdout);
  } catch (err) {
    return diagnosticError(stdout, (err as Error).message);
  }
  if (value === null) return new CniError(ErrorCode.Unknown, "");
  if (typeof value !== "object" || Array.isArray(value)) {
    return diagnosticError(stdout, `json: cannot unmarshal ${goJsonKind(value)} into Go value of type types.Error`);
  }
  // Extra keys such as cniVersion are ignored (E-5); wrong types fail like Go's decoder.
  const obj = value as Record<string, unknown>;
  const code = obj.code ?? 0;
  if (typeof code !== "number" || !Number.isInteger(code) || code < 0) {
    return diagnosticError(
      stdout,
      `json: cannot unmarshal ${goJsonKind(code)} into Go struct field Error.code of type uint`,
    );
  }
  for (const key of ["msg", "details"] as const) {
    const v = obj[key];
    if (v !== undefined && v !== null && typeof v !== "string") {
      return diagnosticError(
        stdout,
        `json: cannot unmarshal ${goJsonKind(v)} into Go struct field Error.${key} of type string`,
      );
    }
  }
  return new CniError(
    code,
    typeof obj.msg === "string" ? obj.msg : "",
    typeof obj.details === "string" ? obj.details : "",
  );
}

function diagnosticError(stdout: string, why: string): CniError {
  return new CniError(
    ErrorCode.Unknown,
    `netplugin failed but error parsing its diagnostic message ${goQuote(stdout)}: ${why}`,
  );
}

/**
 * The error of a failed plugin run (E-5): the error object on stdout when there is one
 * (code 0 and a "diagnostic message" text when it does not parse), else stderr, else the
 * bare exit status. A run killed by its timeout is code 11 (try again later).
 */
export function pluginError(path: string, outcome: ExecOutcome, timeoutMs?: number): CniError {
  if (outcome.timedOut === true) {
    return new CniError(
      ErrorCode.TryAgainLater,
      `netplugin ${goQuote(path)} timed out after ${timeoutMs ?? 0}ms`,
      outcome.failure ?? "",
    );
  }
  const why = outcome.failure ?? "exit status 1";
  if (outcome.stdout.length > 0) return errorFromStdout(decoder.decode(outcome.stdout));
  if (outcome.stderr.length > 0) {
    return new CniError(ErrorCode.Unknown, `netplugin failed: ${goQuote(decoder.decode(outcome.stderr))}: ${why}`);
  }
  return new CniError(ErrorCode.Unknown, `netplugin failed with no error message: ${why}`);
}

/** The `cniVersion` of a request config; missing or empty means 0.1.0 (the Go ConfigDecoder). */
export function configVersion(netconf: Uint8Array): string {
  let value: unknown;
  try {
    value = parseGoJson(decoder.decode(netconf));
  } catch (err) {
    throw new CniError(ErrorCode.DecodingFailure, `decoding version from network config: ${(err as Error).message}`);
  }
  const v = value !== null && typeof value === "object" ? (value as Record<string, unknown>).cniVersion : undefined;
  if (v !== undefined && v !== null && typeof v !== "string") {
    throw new CniError(
      ErrorCode.DecodingFailure,
      `decoding version from network config: json: cannot unmarshal ${goJsonKind(v)} into Go struct field .cniVersion of type string`,
    );
  }
  return typeof v === "string" && v !== "" ? v : "0.1.0";
}

/**
 * A successful ADD's stdout as a JSON object with its version settled (RP-2): `null` is
 * `{}`, a non-empty string `cniVersion` is kept even when it differs from the config, and
 * a missing one is filled with the config's version (issue #895).
 */
export function rawResult(netconf: Uint8Array, stdout: Uint8Array): { version: string; raw: Record<string, unknown> } {
  const confVersion = configVersion(netconf);
  const text = decoder.decode(stdout);
  let value: unknown;
  try {
    value = parseGoJson(text);
  } catch (err) {
    throw new CniError(ErrorCode.DecodingFailure, `failed to unmarshal raw result: ${(err as Error).message}`);
  }
  if (value !== null && (typeof value !== "object" || Array.isArray(value))) {
    throw new CniError(
      ErrorCode.DecodingFailure,
      `failed to unmarshal raw result: json: cannot unmarshal ${goJsonKind(value)} into Go value of type map[string]interface {}`,
    );
  }
  const raw = { ...((value ?? {}) as Record<string, unknown>) };
  const own = raw.cniVersion;
  if (typeof own === "string" && own !== "") return { version: own, raw };
  raw.cniVersion = confVersion;
  return { version: confVersion, raw };
}
