/**
 * The one error of the pod-network manager that callers tell apart: no valid default
 * network yet (kubelet reports the node's network as not ready).
 */
import { CniError, ErrorCode } from "@tscni/spec";

/**
 * No valid network in the config dir: `network plugin not initialized: <why>`. Code 50
 * ("plugin not available"), which is what STATUS reports for a network that cannot
 * serve ADD yet (ST-2).
 *
 * @example new NetworkNotInitializedError("no valid networks found in /etc/cni/net.d")
 */
export class NetworkNotInitializedError extends CniError {
  /** Why there is no network, e.g. `no networks found in /etc/cni/net.d`. */
  readonly reason: string;

  constructor(reason: string, warnings: readonly string[] = []) {
    super(ErrorCode.PluginNotAvailable, `network plugin not initialized: ${reason}`, warnings.join("; "));
    this.name = "NetworkNotInitializedError";
    this.reason = reason;
  }
}
