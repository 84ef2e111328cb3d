/**
 * The Linux {@link Transport}: an AF_PACKET socket inside the container's namespace
 * (`@tscni/kernel/linux` openPacketSocket), polled without blocking the daemon's one
 * thread: a receive is a non-blocking read retried every few milliseconds until the wait
 * ends.
 */
import { openPacketSocket } from "@tscni/kernel/linux";
import type { Transport } from "./client.ts";
import { ipString } from "./packet.ts";

const POLL_MS = 10;

/** A transport on `ifName` in `netns`, bringing the link up first as the reference does (lease.go `acquire`). */
export async function openTransport(netns: string, ifName: string): Promise<Transport & { setUp(up: boolean): void }> {
  const s = await openPacketSocket(netns, ifName, { up: true });
  return {
    hwaddr: s.hwaddr,
    // The source address is the message's ciaddr: 0.0.0.0 until bound, the lease when renewing.
    send: (payload) => s.sendUdp(payload, ipString(payload, 12)),
    async recv(ms) {
      const until = Date.now() + ms;
      for (;;) {
        const p = s.recvUdp();
        if (p !== undefined) return p;
        const left = until - Date.now();
        if (left <= 0) return undefined;
        await Bun.sleep(Math.min(POLL_MS, left));
      }
    },
    linkExists: () => s.linkExists(),
    setUp: (up) => s.setUp(up),
    close: () => s.close(),
  };
}
