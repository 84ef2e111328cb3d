/**
 * JSON bytes to text the way Go's encoding/json reads strings: each byte that does not
 * start a complete, valid UTF-8 sequence becomes its own U+FFFD (utf8.DecodeRune returns
 * width 1). The WHATWG decoder instead folds a truncated sequence ("\xed\x80") into ONE
 * U+FFFD, so a name or cniVersion with such bytes came out different from libcni's
 * (found by `cni fuzz config --against`, issue 15).
 */

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The length of the valid UTF-8 sequence at `i`, or 0 when Go would decode RuneError width 1. */
function sequenceLength(b: Uint8Array, i: number): number {
  const b0 = b[i] ?? 0;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => {
    const x = b[i + k];
    return x !== undefined && x >= lo && x <= hi;
  };
  if (b0 < 0x80) return 1;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const [lo, hi] = b0 === 0xe0 ? [0xa0, 0xbf] : b0 === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const [lo, hi] = b0 === 0xf0 ? [0x90, 0xbf] : b0 === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** `bytes` as text, invalid UTF-8 replaced byte by byte as Go does. */
export function goDecodeUtf8(bytes: Uint8Array): string {
  try {
    return strict.decode(bytes);
  } catch {
    // Invalid somewhere: decode valid runs with the decoder, replace each bad byte.
  }
  let out = "";
  let start = 0;
  let i = 0;
  while (i < bytes.length) {
    const n = sequenceLength(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    out += strict.decode(bytes.subarray(start, i));
    out += "\ufffd";
    i += 1;
    start = i;
  }
  return out + strict.decode(bytes.subarray(start));
}
