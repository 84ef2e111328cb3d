/**
 * The DHCPv4 exchanges of one interface (RFC 2131 sections 3.1, 4.3.2, 4.4): DISCOVER/OFFER,
 * REQUEST/ACK|NAK, renew (unicast-style REQUEST with ciaddr), rebind and RELEASE, over a
 * {@link Transport} port, each wait retried as nclient4 does (3 sends, the timeout
 * doubling), with no clock of its own beyond the transport's wait.
 */
import {
  type DhcpMessage,
  FLAG_BROADCAST,
  MessageType,
  Opt,
  decodeMessage,
  encodeMessage,
  ipBytes,
  ipString,
  messageType,
} from "./packet.ts";
import { DISCOVERY_REQUESTED, clientIdOption } from "./options.ts";

/** Sends and receives DHCP payloads on one interface (the Linux one is `socket.ts`). */
export interface Transport {
  /** The interface's hardware address (chaddr). */
  readonly hwaddr: Uint8Array;
  /** Broadcasts one DHCP payload to the servers (port 67). */
  send(payload: Uint8Array): void;
  /** The next DHCP payload for port 68 within `ms`, or undefined. */
  recv(ms: number): Promise<Uint8Array | undefined>;
  /** Whether the interface still exists. */
  linkExists(): boolean;
  close(): void;
}

/** How one client talks: its id, extra options, broadcast flag and per-wait timeout. */
export interface ClientSettings {
  clientId: string;
  /** Options from `prepareOptions` (provided values, parameter request list). */
  options: ReadonlyMap<number, Uint8Array>;
  broadcast: boolean;
  /** First wait for a reply (the daemon's `-timeout`), doubled at each of 3 sends. */
  timeoutMs: number;
  /** Transaction ids; random in production, fixed in tests. */
  xid?: () => number;
}

/** The error nclient4 gives when no reply matched in time. */
export const NO_RESPONSE = "no matching response packet received";

/** Thrown when the server answers NAK (nclient4's ErrNak text). */
export class NakError extends Error {}

const MAX_MESSAGE_SIZE = Uint8Array.of(0x05, 0xdc); // 1500, as nclient4

function base(s: ClientSettings, t: Transport, type: number, xid: number, user = true): DhcpMessage {
  const options = new Map<number, Uint8Array>([
    [Opt.MessageType, Uint8Array.of(type)],
    [Opt.ParameterRequestList, Uint8Array.from(DISCOVERY_REQUESTED)],
  ]);
  options.set(Opt.MaxMessageSize, MAX_MESSAGE_SIZE);
  options.set(Opt.ClientId, clientIdOption(s.clientId));
  // User options come last so that `provide` can override the client id (options.go).
  if (user) for (const [k, v] of s.options) options.set(k, v);
  return {
    op: 1,
    xid,
    secs: 0,
    flags: s.broadcast ? FLAG_BROADCAST : 0,
    ciaddr: "0.0.0.0",
    yiaddr: "0.0.0.0",
    siaddr: "0.0.0.0",
    giaddr: "0.0.0.0",
    chaddr: t.hwaddr,
    options,
  };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Sends `msg` and waits for a reply with its xid and chaddr that `match` accepts; 3 sends, doubling waits. */
export async function exchange(
  t: Transport,
  msg: DhcpMessage,
  timeoutMs: number,
  match: (m: DhcpMessage) => boolean,
): Promise<DhcpMessage> {
  const bytes = encodeMessage(msg);
  let wait = timeoutMs;
  let sendError: Error | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    // A link just set up may refuse the first frame (ENETDOWN until it is running): the next send retries.
    try {
      t.send(bytes);
      sendError = undefined;
    } catch (err) {
      sendError = err as Error;
    }
    const until = Date.now() + wait;
    for (let left = wait; left > 0; left = until - Date.now()) {
      const raw = await t.recv(left);
      if (raw === undefined) break;
      let m: DhcpMessage;
      try {
        m = decodeMessage(raw);
      } catch {
        continue; // not a DHCP reply we can read: keep listening
      }
      if (m.op === 2 && m.xid === msg.xid && sameBytes(m.chaddr, msg.chaddr.subarray(0, m.chaddr.length)) && match(m))
        return m;
    }
    wait *= 2;
  }
  throw sendError ?? new Error(NO_RESPONSE);
}

function newXid(s: ClientSettings): number {
  return s.xid?.() ?? (Math.random() * 0x1_0000_0000) >>> 0;
}

function serverId(m: DhcpMessage): string | undefined {
  const v = m.options.get(Opt.ServerId);
  return v?.length === 4 ? ipString(v) : undefined;
}

function ackOrNak(m: DhcpMessage, server?: string): boolean {
  const t = messageType(m);
  return (t === MessageType.Ack || t === MessageType.Nak) && (server === undefined || serverId(m) === server);
}

function checkNak(m: DhcpMessage): DhcpMessage {
  if (messageType(m) !== MessageType.Nak) return m;
  const text = new TextDecoder().decode(m.options.get(Opt.Message) ?? new Uint8Array());
  throw new NakError(
    text.length > 0 ? `server rejected request with Nak (msg: ${text})` : "server rejected request with Nak",
  );
}

/** DISCOVER, OFFER, REQUEST, ACK (SELECTING, RFC 2131 section 4.3.2); the ACK, or NakError. */
export async function requestLease(t: Transport, s: ClientSettings): Promise<DhcpMessage> {
  const discover = base(s, t, MessageType.Discover, newXid(s));
  let offer: DhcpMessage;
  try {
    offer = await exchange(t, discover, s.timeoutMs, (m) => messageType(m) === MessageType.Offer);
  } catch (err) {
    throw new Error(`unable to receive an offer: got an error while the discovery request: ${(err as Error).message}`);
  }
  const request = base(s, t, MessageType.Request, offer.xid);
  const server = serverId(offer);
  request.options.set(Opt.RequestedIP, ipBytes(offer.yiaddr));
  if (server !== undefined) request.options.set(Opt.ServerId, ipBytes(server));
  try {
    return checkNak(await exchange(t, request, s.timeoutMs, (m) => ackOrNak(m, server)));
  } catch (err) {
    if (err instanceof NakError) throw err;
    throw new Error(`got an error while processing the request: ${(err as Error).message}`);
  }
}

/** REQUEST with ciaddr set and no server id (RENEWING and REBINDING, RFC 2131 section 4.3.2); the ACK, or NakError. */
export async function renewLease(t: Transport, s: ClientSettings, ack: DhcpMessage): Promise<DhcpMessage> {
  const request = base(s, t, MessageType.Request, newXid(s));
  request.ciaddr = ack.yiaddr;
  return checkNak(await exchange(t, request, s.timeoutMs, (m) => ackOrNak(m)));
}

/** RELEASE of the lease in `ack` (RFC 2131 section 4.4.6): no reply is expected. */
export function releaseLease(t: Transport, s: ClientSettings, ack: DhcpMessage): void {
  // The reference's release carries only the client id (lease.go `release`).
  const m = base(s, t, MessageType.Release, newXid(s), false);
  m.flags = 0;
  m.ciaddr = ack.yiaddr;
  m.options.delete(Opt.ParameterRequestList);
  m.options.delete(Opt.MaxMessageSize);
  const server = ack.options.get(Opt.ServerId);
  if (server !== undefined) m.options.set(Opt.ServerId, server);
  t.send(encodeMessage(m));
}
