/**
 * Cheap looks at raw JSON text for what JSON.parse hides: a key given more than once,
 * and numbers beyond float64 in any occurrence. They decide whether the slower decode of
 * every occurrence (`goDecodeInto`) is needed, so they only use indexOf, a small
 * regex and a walk of the parsed value.
 */

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * The number of object keys in valid JSON text, repeats counted: a string token followed
 * by a colon. Quotes are found with indexOf and an escaped one told by the backslashes
 * before it, which stays linear where a regex over escapes backtracked for seconds.
 */
function keyTokens(text: string): number {
  let n = 0;
  for (let open = text.indexOf('"'); open >= 0; ) {
    let close = text.indexOf('"', open + 1);
    while (close >= 0 && escaped(text, close)) close = text.indexOf('"', close + 1);
    if (close < 0) break;
    let k = close + 1;
    while (WS.has(text.charCodeAt(k))) k++;
    if (text.charCodeAt(k) === 0x3a) n++;
    open = text.indexOf('"', close + 1);
  }
  return n;
}

/** True when the quote at `i` is escaped: an odd number of backslashes before it. */
function escaped(text: string, i: number): boolean {
  let b = i - 1;
  while (text.charCodeAt(b) === 0x5c) b--;
  return (i - 1 - b) % 2 === 1;
}

/** The number of object keys in a parsed JSON value. */
function parsedKeys(root: unknown): number {
  let n = 0;
  const stack: object[] = typeof root === "object" && root !== null ? [root] : [];
  for (let v = stack.pop(); v !== undefined; v = stack.pop()) {
    const values: unknown[] = Array.isArray(v) ? v : Object.values(v);
    if (!Array.isArray(v)) n += values.length;
    for (const x of values) if (typeof x === "object" && x !== null) stack.push(x);
  }
  return n;
}

/**
 * True when valid JSON `text` gives some object key more than once, which its JSON.parse
 * value `parsed` cannot show: the text has more key tokens than the value has keys. A
 * regex and a walk of the value, so cheap enough to decide whether `goDecodeInto`
 * is needed at all.
 */
export function goRepeatsKeys(text: string, parsed: unknown): boolean {
  return text.includes('"') && keyTokens(text) !== parsedKeys(parsed);
}

const NUMBER = /-?\d[\d.]*(?:[eE][+-]?\d+)?/g;

/**
 * The first number literal of valid JSON `text` beyond float64, looking at every
 * occurrence of every key (Go decodes each one into `interface{}`; JSON.parse keeps the
 * last). Strings are skipped as {@link goRepeatsKeys} skips them.
 */
export function goHugeNumber(text: string): string | undefined {
  let from = 0;
  for (;;) {
    const open = text.indexOf('"', from);
    const segment = text.slice(from, open < 0 ? text.length : open);
    for (const m of segment.matchAll(NUMBER)) if (!Number.isFinite(Number(m[0]))) return m[0];
    if (open < 0) return undefined;
    let close = text.indexOf('"', open + 1);
    while (close >= 0 && escaped(text, close)) close = text.indexOf('"', close + 1);
    if (close < 0) return undefined;
    from = close + 1;
  }
}
