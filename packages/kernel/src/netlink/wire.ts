/**
 * The netlink wire format (netlink(7), rtnetlink(7)): building a request of a fixed
 * header and nested attributes, and walking the messages and attributes of a reply.
 * Pure: bytes in, bytes out, host byte order (little-endian on every Linux Bun runs on).
 */

/** Size of `struct nlmsghdr`. */
export const NLMSG_HDRLEN = 16;

const align4 = (n: number): number => (n + 3) & ~3;
const encoder = new TextEncoder();

/**
 * Builds one netlink message: the header, a fixed family header (`ifinfomsg`, `ifaddrmsg`,
 * `rtmsg`) written through {@link MessageBuilder.fixed}, then attributes.
 */
export class MessageBuilder {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  private len = NLMSG_HDRLEN;
  private readonly open: number[] = [];

  constructor(type: number, flags: number) {
    this.view.setUint16(4, type, true);
    this.view.setUint16(6, flags, true);
  }

  private grow(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.len + n + 64));
    next.set(this.buf);
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  /** Appends `size` zero bytes (a fixed header) and lets `fill` write them at offset `at`. */
  fixed(size: number, fill: (view: DataView, at: number) => void): this {
    this.grow(align4(size));
    fill(this.view, this.len);
    this.len += align4(size);
    return this;
  }

  /** Appends an attribute with a raw payload. */
  bytes(type: number, payload: Uint8Array): this {
    this.grow(4 + align4(payload.length));
    this.view.setUint16(this.len, 4 + payload.length, true);
    this.view.setUint16(this.len + 2, type, true);
    this.buf.set(payload, this.len + 4);
    this.len += 4 + align4(payload.length);
    return this;
  }

  /** A NUL-terminated string attribute. */
  str(type: number, s: string): this {
    const b = encoder.encode(s);
    const z = new Uint8Array(b.length + 1);
    z.set(b);
    return this.bytes(type, z);
  }

  /** An 8-bit attribute. */
  u8(type: number, n: number): this {
    return this.bytes(type, Uint8Array.of(n & 0xff));
  }

  /** A 16-bit attribute. */
  u16(type: number, n: number): this {
    const b = new Uint8Array(2);
    new DataView(b.buffer).setUint16(0, n, true);
    return this.bytes(type, b);
  }

  /** A 32-bit attribute. */
  u32(type: number, n: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, n >>> 0, true);
    return this.bytes(type, b);
  }

  /** Opens a nested attribute; close it with {@link end}. */
  nest(type: number): this {
    this.grow(4);
    this.view.setUint16(this.len + 2, type, true);
    this.open.push(this.len);
    this.len += 4;
    return this;
  }

  /** Closes the innermost nested attribute. */
  end(): this {
    const at = this.open.pop();
    if (at === undefined) throw new Error("netlink: end() without nest()");
    this.view.setUint16(at, this.len - at, true);
    return this;
  }

  /** The finished message with sequence number `seq`. */
  build(seq: number): Uint8Array {
    if (this.open.length > 0) throw new Error("netlink: unclosed nested attribute");
    this.view.setUint32(0, this.len, true);
    this.view.setUint32(8, seq >>> 0, true);
    return this.buf.subarray(0, this.len);
  }
}

/** One message of a reply: its header fields and its payload. */
export interface Message {
  type: number;
  flags: number;
  seq: number;
  /** The bytes after the header. */
  payload: DataView;
}

/** The messages in one datagram of `n` bytes. */
export function* messages(buf: Uint8Array, n: number): Generator<Message> {
  const view = new DataView(buf.buffer, buf.byteOffset, n);
  for (let at = 0; at + NLMSG_HDRLEN <= n; ) {
    const len = view.getUint32(at, true);
    if (len < NLMSG_HDRLEN || at + len > n) return;
    yield {
      type: view.getUint16(at + 4, true),
      flags: view.getUint16(at + 6, true),
      seq: view.getUint32(at + 8, true),
      payload: new DataView(buf.buffer, buf.byteOffset + at + NLMSG_HDRLEN, len - NLMSG_HDRLEN),
    };
    at += align4(len);
  }
}

/**
 * Attributes by type (the last of a repeated type wins), from `start` to the end of
 * `view`; only the types in `want` when given (a link carries ~50 attributes, and a view
 * per attribute is most of the cost of decoding a dump).
 */
export function attrs(view: DataView, start = 0, want?: ReadonlySet<number>): Map<number, DataView> {
  const out = new Map<number, DataView>();
  for (let at = start; at + 4 <= view.byteLength; ) {
    const len = view.getUint16(at, true);
    if (len < 4 || at + len > view.byteLength) break;
    // The top bits flag nesting and byte order; the type is the rest.
    const type = view.getUint16(at + 2, true) & 0x3fff;
    if (want === undefined || want.has(type))
      out.set(type, new DataView(view.buffer, view.byteOffset + at + 4, len - 4));
    at += align4(len);
  }
  return out;
}

const decoder = new TextDecoder();

/** A string attribute's value (up to its NUL). */
export function attrStr(v: DataView | undefined): string | undefined {
  if (v === undefined) return undefined;
  const b = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  const nul = b.indexOf(0);
  return decoder.decode(nul < 0 ? b : b.subarray(0, nul));
}

/** An 8-, 16- or 32-bit unsigned attribute, by its length. */
export function attrU(v: DataView | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (v.byteLength >= 4) return v.getUint32(0, true);
  if (v.byteLength >= 2) return v.getUint16(0, true);
  return v.byteLength >= 1 ? v.getUint8(0) : undefined;
}

/** The bytes of an attribute. */
export function attrBytes(v: DataView): Uint8Array {
  return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
}
