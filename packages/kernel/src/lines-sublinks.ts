/**
 * The `ip link add` lines of the sub-link kinds (ops-sublinks.ts) and of a vlan created in
 * another namespace: what `cni plan` prints and the iproute2 driver runs. Pure.
 */
import { KernelError } from "./kernel.ts";
import type { DummyAdd, IpvlanAdd, MacvlanAdd } from "./ops-sublinks.ts";
import { HOST, type Netns, type VlanAdd } from "./ops.ts";

// As lines.ts: iproute2's batch tokenizer splits on whitespace and honours quotes and `#`.
const UNSAFE = /[\s"'\\]|^#|^$/;

function tok(value: string | number): string {
  const s = String(value);
  if (UNSAFE.test(s)) throw new KernelError("invalid", `value "${s}" cannot appear on an ip batch line`);
  return s;
}

function common(
  op: { name: string; mtu?: number | undefined; mac?: string | undefined; ns: Netns; into?: Netns | undefined },
  hostRef: string,
): string[] {
  const w: string[] = [];
  if (op.mtu !== undefined) w.push("mtu", tok(op.mtu));
  if (op.mac !== undefined) w.push("address", tok(op.mac));
  if (op.into !== undefined && op.into !== op.ns) w.push("netns", tok(op.into === HOST ? hostRef : op.into));
  return w;
}

/** `link add NAME link PARENT [mtu M] [address A] [netns NS] type macvlan mode MODE [bcqueuelen N]`. */
export function macvlanLine(op: MacvlanAdd, hostRef: string): string {
  const w = [
    "link add",
    tok(op.name),
    "link",
    tok(op.parent),
    ...common(op, hostRef),
    "type macvlan mode",
    tok(op.mode),
  ];
  if (op.bcqueuelen !== undefined) w.push("bcqueuelen", tok(op.bcqueuelen));
  return w.join(" ");
}

/** `link add NAME link PARENT [mtu M] [netns NS] type ipvlan mode MODE [FLAG]`. */
export function ipvlanLine(op: IpvlanAdd, hostRef: string): string {
  const w = [
    "link add",
    tok(op.name),
    "link",
    tok(op.parent),
    ...common(op, hostRef),
    "type ipvlan mode",
    tok(op.mode),
  ];
  if (op.flag !== undefined) w.push(tok(op.flag));
  return w.join(" ");
}

/** `link add NAME [mtu M] [address A] type dummy`. */
export function dummyLine(op: DummyAdd): string {
  return ["link add", tok(op.name), ...common({ ...op, into: undefined }, ""), "type dummy"].join(" ");
}

/** A vlan with an MTU or a target namespace: `link add NAME link PARENT [mtu M] [netns NS] type vlan id N`. */
export function vlanLine(op: VlanAdd, hostRef: string): string {
  return ["link add", tok(op.name), "link", tok(op.parent), ...common(op, hostRef), "type vlan id", tok(op.id)].join(
    " ",
  );
}
