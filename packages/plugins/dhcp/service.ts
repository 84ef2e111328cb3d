/**
 * The daemon's leases (the reference's daemon.go `DHCP` type): Allocate acquires a lease
 * inside the container's namespace, or wakes the existing one (CHECK and a repeated ADD
 * ask again); Release stops its maintenance and sends DHCPRELEASE. Every ACK is persisted
 * (`state.ts`), so that {@link DhcpService.resume} picks the leases up after a restart
 * and keeps renewing them (our choice: resumed, not released).
 */
import type { Result100 } from "@tscni/spec";
import { type Backoff, backoffRetry } from "./backoff.ts";
import { type ClientSettings, type Transport, releaseLease, renewLease, requestLease } from "./client.ts";
import { parseDhcpConf } from "./config.ts";
import { type Clock, type LeaseState, type LeaseTimes, leaseTimes, maintain } from "./lease.ts";
import { clientIdText, leaseResult, prepareOptions } from "./options.ts";
import { type DhcpMessage, decodeMessage, encodeMessage } from "./packet.ts";
import { type SavedLease, decodeOptions, encodeOptions, forgetLease, loadLeases, saveLease } from "./state.ts";
import type { DaemonRequest } from "./wire.ts";

/** Opens a transport on an interface of a namespace, link set up. */
export type OpenTransport = (netns: string, ifName: string) => Promise<Transport & { setUp(up: boolean): void }>;

/** The daemon's settings (its flags). */
export interface ServiceOptions {
  hostPrefix: string;
  broadcast: boolean;
  timeoutMs: number;
  backoff: Backoff;
  stateDir: string;
  open: OpenTransport;
  clock: Clock;
  log: (msg: string) => void;
}

interface Running {
  ack: DhcpMessage;
  stop: AbortController;
  check: AbortController;
  done: Promise<LeaseState>;
  transport: Transport;
}

/** The leases one daemon maintains. */
export class DhcpService {
  readonly #leases = new Map<string, Running>();
  /** One operation per client id at a time, so that two ADDs never acquire twice. */
  readonly #queues = new Map<string, Promise<unknown>>();
  #closing = false;

  constructor(private readonly o: ServiceOptions) {}

  #serial<T>(id: string, f: () => Promise<T>): Promise<T> {
    const prev = this.#queues.get(id) ?? Promise.resolve();
    const next = prev.then(f, f);
    this.#queues.set(
      id,
      next.catch(() => undefined),
    );
    return next;
  }

  /** The lease ids held now. */
  held(): string[] {
    return [...this.#leases.keys()];
  }

  /** DHCP.Allocate: the result for the request's attachment, acquiring a lease when there is none. */
  async allocate(req: DaemonRequest): Promise<Result100> {
    const conf = parseDhcpConf(req.stdinData);
    const options = prepareOptions(req.args, conf.provide, conf.request);
    const id = clientIdText(req.containerID, conf.name, req.ifName);
    return this.#serial(id, async () => {
      let l = this.#leases.get(id);
      if (l !== undefined) {
        l.check.abort();
      } else {
        const netns = this.o.hostPrefix + req.netns;
        const settings = this.#settings(id, options, this.o.broadcast);
        this.o.log(`${id}: acquiring lease`);
        const t = await this.o.open(netns, req.ifName);
        let ack: DhcpMessage;
        try {
          ack = await backoffRetry(
            this.o.clock,
            this.o.backoff,
            new AbortController().signal,
            () => requestLease(t, settings),
            (m) => this.o.log(`${id}: ${m}`),
          );
        } catch (err) {
          t.close();
          throw err;
        }
        const times = leaseTimes(ack, this.o.clock.now());
        this.o.log(`${id}: lease acquired, expiration is ${new Date(times.expireAt).toISOString()}`);
        l = this.#start(id, { netns, ifName: req.ifName, settings, ack, times, transport: t });
      }
      const got = leaseResult(l.ack, conf.priority);
      return {
        cniVersion: "1.1.0",
        ips: [{ address: got.address, ...(got.gateway === undefined ? {} : { gateway: got.gateway }) }],
        routes: got.routes,
      };
    });
  }

  /** DHCP.Release: stops the attachment's lease and releases it; nothing held is success. */
  async release(req: DaemonRequest): Promise<void> {
    const conf = parseDhcpConf(req.stdinData);
    const id = clientIdText(req.containerID, conf.name, req.ifName);
    return this.#serial(id, async () => {
      const l = this.#leases.get(id);
      if (l === undefined) return;
      l.stop.abort();
      await l.done;
      this.#leases.delete(id);
      forgetLease(this.o.stateDir, id);
    });
  }

  /** Picks up the persisted leases of a previous run; a lease whose namespace or link is gone is forgotten. */
  async resume(): Promise<number> {
    let n = 0;
    for (const s of loadLeases(this.o.stateDir, (f, why) =>
      this.o.log(`skipping unreadable lease record ${f}: ${why}`),
    )) {
      let t: Transport & { setUp(up: boolean): void };
      try {
        t = await this.o.open(s.netns, s.ifName);
      } catch (err) {
        this.o.log(`${s.clientId}: not resumed (${(err as Error).message}), forgetting it`);
        forgetLease(this.o.stateDir, s.clientId);
        continue;
      }
      const ack = decodeMessage(new Uint8Array(Buffer.from(s.ack, "base64")));
      const settings = this.#settings(s.clientId, decodeOptions(s.options), s.broadcast);
      this.#start(s.clientId, { netns: s.netns, ifName: s.ifName, settings, ack, times: s, transport: t });
      this.o.log(`${s.clientId}: lease resumed, expiration is ${new Date(s.expireAt).toISOString()}`);
      n++;
    }
    return n;
  }

  /** Stops maintaining every lease without releasing it (daemon shutdown: the records stay for the next run). */
  async shutdown(): Promise<void> {
    this.#closing = true;
    for (const l of this.#leases.values()) l.transport.close();
    this.#leases.clear();
  }

  #settings(
    clientId: string,
    options: Map<number, Uint8Array>,
    broadcast: boolean,
  ): ClientSettings & { options: Map<number, Uint8Array> } {
    return { clientId, options, broadcast, timeoutMs: this.o.timeoutMs };
  }

  #start(
    id: string,
    s: {
      netns: string;
      ifName: string;
      settings: ClientSettings & { options: Map<number, Uint8Array> };
      ack: DhcpMessage;
      times: LeaseTimes;
      transport: Transport & { setUp(up: boolean): void };
    },
  ): Running {
    const record = (ack: DhcpMessage, times: LeaseTimes): void => {
      const saved: SavedLease = {
        clientId: id,
        netns: s.netns,
        ifName: s.ifName,
        options: encodeOptions(s.settings.options),
        broadcast: s.settings.broadcast,
        ack: Buffer.from(encodeMessage(ack)).toString("base64"),
        ...times,
      };
      saveLease(this.o.stateDir, saved);
    };
    record(s.ack, s.times);
    const stop = new AbortController();
    const running: Running = {
      ack: s.ack,
      stop,
      check: new AbortController(),
      transport: s.transport,
      done: Promise.resolve("bound"),
    };
    const t = s.transport;
    const log = (m: string): void => this.o.log(`${id}: ${m}`);
    const retry = <T>(f: () => Promise<T>): Promise<T> =>
      backoffRetry(this.o.clock, this.o.backoff, stop.signal, f, log);
    running.done = maintain(
      { ack: s.ack, times: s.times },
      {
        renew: (ack) => retry(() => renewLease(t, s.settings, ack)),
        rebind: () => retry(() => requestLease(t, s.settings)),
        release: (ack) => {
          log("releasing lease");
          releaseLease(t, s.settings, ack);
        },
        linkExists: () => t.linkExists(),
        linkDown: () => t.setUp(false),
        committed: (ack, times) => {
          running.ack = ack;
          record(ack, times);
        },
        log,
      },
      this.o.clock,
      stop.signal,
      () => {
        if (running.check.signal.aborted) running.check = new AbortController();
        return running.check.signal;
      },
    ).then(
      (end) => {
        t.close();
        // A lease that ended by itself (expired, link gone) is no longer held (lease.go `maintain` returns).
        if (end !== "released" && !this.#closing && this.#leases.get(id) === running) {
          this.#leases.delete(id);
          forgetLease(this.o.stateDir, id);
        }
        return end;
      },
      (err) => {
        t.close();
        log(`lease maintenance failed: ${(err as Error).message}`);
        return "gone" as const;
      },
    );
    this.#leases.set(id, running);
    return running;
  }
}
