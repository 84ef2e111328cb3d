/**
 * tuning's CHECK (CHK-3), as the reference's `cmdCheck` compares: each sysctl's current
 * value (trailing newline dropped) with the configured one, then the link's MAC (as a
 * string: `HardwareAddr.String()` against the configured text), promiscuity (also when
 * `promisc` is false: then the link must not be promiscuous), MTU, all-multicast and
 * queue length, each with the reference's message.
 */
import type { Kernel, Netns } from "@tscni/kernel";
import type { TuningConfig } from "./config.ts";
import { kernelKey, sysctlFile } from "./sysctl.ts";

/** Throws the reference's message for the first value that differs. */
export async function checkTuning(kernel: Kernel, conf: TuningConfig, ns: Netns, ifName: string): Promise<void> {
  for (const [key, want] of conf.sysctl) {
    const file = sysctlFile(key, ifName);
    const got = await kernel.sysctl(ns, kernelKey(file));
    if (got === undefined) throw new Error(`open ${file}: no such file or directory`);
    if (got !== want) throw new Error(`Error: Tuning configured value of ${file} is ${want}, current value is ${got}`);
  }
  const link = await kernel.link(ns, ifName);
  if (link === undefined) throw new Error(`Cannot find container link ${ifName}`);
  if (conf.mac !== "" && conf.mac !== link.mac) {
    throw new Error(`Error: Tuning configured Ethernet of ${ifName} is ${conf.mac}, current value is ${link.mac}`);
  }
  // The reference prints netlink's promiscuity count.
  const count = link.promiscuity ?? (link.promisc ? 1 : 0);
  if (conf.promisc === (count === 0)) {
    throw new Error(`Error: Tuning link ${ifName} configured promisc is ${conf.promisc}, current value is ${count}`);
  }
  if (conf.mtu !== 0 && conf.mtu !== link.mtu) {
    throw new Error(`Error: Tuning configured MTU of ${ifName} is ${conf.mtu}, current value is ${link.mtu}`);
  }
  const allmulti = link.allmulti === true;
  if (conf.allmulti !== undefined && conf.allmulti !== allmulti) {
    // The reference prints the *bool's address here; we print the value.
    throw new Error(
      `Error: Tuning configured all-multicast mode of ${ifName} is ${conf.allmulti}, current value is ${allmulti}`,
    );
  }
  if (conf.txQLen !== undefined && conf.txQLen !== link.txQLen) {
    // The reference formats the *int with %d (an address); we print the value.
    throw new Error(
      `Error: Tuning configured Transmit Queue Length of ${ifName} is ${conf.txQLen}, current value is ${link.txQLen ?? 0}`,
    );
  }
}
