/**
 * The CNI error object and its well-known codes (SPEC.md §4).
 */

/** The well-known CNI error codes (SPEC.md §4.2). */
export const ErrorCode = {
  Unknown: 0,
  IncompatibleCNIVersion: 1,
  UnsupportedField: 2,
  UnknownContainer: 3,
  InvalidEnvironmentVariables: 4,
  IOFailure: 5,
  DecodingFailure: 6,
  InvalidNetworkConfig: 7,
  InvalidNetNS: 8,
  TryAgainLater: 11,
  PluginNotAvailable: 50,
  LimitedConnectivity: 51,
  Internal: 999,
} as const;

/** A numeric CNI error code: one of {@link ErrorCode} or a plugin-specific one (100+). */
export type ErrorCodeValue = number;

/** The JSON form of a CNI error (E-1, E-2). `cniVersion` is optional on the wire. */
export interface CniErrorJson {
  cniVersion?: string;
  code: number;
  msg: string;
  details?: string;
}

/**
 * The one error class at the protocol edge: a code, a short message and optional details.
 *
 * @example throw new CniError(ErrorCode.InvalidNetworkConfig, "missing network name")
 */
export class CniError extends Error {
  readonly code: ErrorCodeValue;
  readonly msg: string;
  readonly details: string;

  constructor(code: ErrorCodeValue, msg: string, details = "") {
    super(details === "" ? msg : `${msg}; ${details}`);
    this.name = "CniError";
    this.code = code;
    this.msg = msg;
    this.details = details;
  }

  /** The string form (E-3): `msg`, or `msg; details` when details are set. */
  override toString(): string {
    return this.message;
  }

  /**
   * The JSON object printed on stdout. The Go skel omits `cniVersion` (E-2); we include it
   * when the caller knows the protocol version, as the spec's error object has it (E-1).
   */
  toWire(cniVersion?: string): CniErrorJson {
    return {
      ...(cniVersion !== undefined && cniVersion !== "" ? { cniVersion } : {}),
      code: this.code,
      msg: this.msg,
      ...(this.details !== "" ? { details: this.details } : {}),
    };
  }

  /** Wraps any thrown value: a CniError passes through, anything else becomes code 999 (§1.11 step 6). */
  static from(err: unknown): CniError {
    if (err instanceof CniError) return err;
    if (err instanceof Error) return new CniError(ErrorCode.Internal, err.message);
    return new CniError(ErrorCode.Internal, String(err));
  }
}
