/**
 * The two "nothing to load" errors of a directory load (§2.7 steps 4-5), as CniErrors a
 * caller can tell apart (libcni's `NotFoundError` and `NoConfigsFoundError`).
 */
import { CniError, ErrorCode } from "@tscni/spec";

/** No config in `dir` has the requested name: `no net configuration with name "<name>" in <dir>`. */
export class NotFoundError extends CniError {
  readonly dir: string;
  readonly network: string;

  constructor(dir: string, network: string) {
    super(ErrorCode.InvalidNetworkConfig, `no net configuration with name "${network}" in ${dir}`);
    this.name = "NotFoundError";
    this.dir = dir;
    this.network = network;
  }
}

/** `dir` holds no config file at all: `no net configurations found in <dir>`. */
export class NoConfigsFoundError extends CniError {
  readonly dir: string;

  constructor(dir: string) {
    super(ErrorCode.InvalidNetworkConfig, `no net configurations found in ${dir}`);
    this.name = "NoConfigsFoundError";
    this.dir = dir;
  }
}
