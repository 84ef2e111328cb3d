/**
 * gob's wire primitives (encoding/gob encode.go, decode.go): unsigned and signed
 * integers, byte strings, message framing, and a cursor that reads them back.
 */

/** Appends gob's uint encoding (one byte below 128, else a negated byte count and big-endian bytes). */
export function pushUint(out: number[], n: number | bigint): void {
  let v = BigInt(n);
  if (v < 128n) {
    out.push(Number(v));
    return;
  }
  const bytes: number[] = [];
  while (v > 0n) {
    bytes.unshift(Number(v & 0xffn));
    v >>= 8n;
  }
  out.push(256 - bytes.length, ...bytes);
}

/** Appends gob's int encoding (sign in the low bit). */
export function pushInt(out: number[], n: number): void {
  const v = BigInt(n);
  pushUint(out, v < 0n ? ((-v - 1n) << 1n) | 1n : v << 1n);
}

/** Appends a length-prefixed byte string. */
export function pushBytes(out: number[], b: Uint8Array): void {
  pushUint(out, b.length);
  for (const x of b) out.push(x);
}

/** A cursor over one message's bytes. */
export class Reader {
  constructor(
    readonly b: Uint8Array,
    public at = 0,
  ) {}

  uint(): bigint {
    const first = this.b[this.at++];
    if (first === undefined) throw new Error("gob: unexpected end of message");
    if (first < 128) return BigInt(first);
    const n = 256 - first;
    if (n > 8 || this.at + n > this.b.length) throw new Error("gob: bad uint");
    let v = 0n;
    for (let i = 0; i < n; i++) v = (v << 8n) | BigInt(this.b[this.at++] as number);
    return v;
  }

  int(): number {
    const u = this.uint();
    return Number(u & 1n ? -(u >> 1n) - 1n : u >> 1n);
  }

  bytes(): Uint8Array {
    const n = Number(this.uint());
    if (this.at + n > this.b.length) throw new Error("gob: bad length");
    const out = this.b.slice(this.at, this.at + n);
    this.at += n;
    return out;
  }
}

/** One message: its length, then its bytes. */
export function frame(msg: number[]): Uint8Array {
  const head: number[] = [];
  pushUint(head, msg.length);
  return Uint8Array.from([...head, ...msg]);
}

/** The parts joined. */
export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
