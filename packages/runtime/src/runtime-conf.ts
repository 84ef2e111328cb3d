/**
 * The per-attachment input of the runtime and the records it returns (§7.1).
 */

/** One attachment's parameters (the Go lib's `RuntimeConf`). */
export interface RuntimeConf {
  readonly containerID: string;
  /** The netns path; may be empty on DEL when the namespace is gone. */
  readonly netns: string;
  readonly ifName: string;
  /** Pairs for `CNI_ARGS` (CA-4), kept in the cache for GC's DELs. */
  readonly args?: readonly (readonly [string, string])[];
  /** Capability arguments; each plugin gets only those it declares (CAP-1, CAP-2). */
  readonly capabilityArgs?: Readonly<Record<string, unknown>>;
}

/** An attachment that GC must keep (GC-2). */
export interface GCAttachment {
  readonly containerID: string;
  readonly ifname: string;
}

/** The arguments of a GC; `undefined` (what cnitool passes) makes every cached attachment stale (§7.7). */
export interface GCArgs {
  readonly validAttachments: readonly GCAttachment[];
}

/** One cached attachment (GA-4). */
export interface NetworkAttachment {
  readonly containerID: string;
  readonly network: string;
  readonly ifName: string;
  /** The raw config list bytes the ADD ran with. */
  readonly config: Uint8Array;
  readonly netns: string;
  readonly cniArgs?: readonly (readonly [string, string])[];
  readonly capabilityArgs?: Readonly<Record<string, unknown>>;
}
