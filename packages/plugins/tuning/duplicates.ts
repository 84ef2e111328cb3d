/**
 * The reference's `validateSysctlConflictingKeys`: the top-level `sysctl` object may not
 * name a key twice. JSON.parse keeps the last of duplicated keys silently, so the raw
 * stdin bytes are scanned: a small JSON walker that only needs to skip values and read
 * the keys of the top-level object and of its `sysctl` member.
 */

/** A position in the text; the walker advances it. */
interface Cursor {
  s: string;
  i: number;
}

const ws = (c: Cursor): void => {
  while (c.i < c.s.length && " \t\r\n".includes(c.s[c.i] ?? "")) c.i++;
};

/** Reads a JSON string at the cursor (which is on its opening quote) and decodes it. */
function readString(c: Cursor): string {
  const start = c.i;
  c.i++;
  while (c.i < c.s.length && c.s[c.i] !== '"') c.i += c.s[c.i] === "\\" ? 2 : 1;
  c.i++;
  return JSON.parse(c.s.slice(start, c.i)) as string;
}

/** Skips one JSON value of any kind. */
function skipValue(c: Cursor): void {
  ws(c);
  const ch = c.s[c.i];
  if (ch === '"') {
    readString(c);
    return;
  }
  if (ch === "{" || ch === "[") {
    let depth = 0;
    while (c.i < c.s.length) {
      const x = c.s[c.i];
      if (x === '"') {
        readString(c);
        continue;
      }
      if (x === "{" || x === "[") depth++;
      if (x === "}" || x === "]") depth--;
      c.i++;
      if (depth === 0) return;
    }
    return;
  }
  while (c.i < c.s.length && !",}] \t\r\n".includes(c.s[c.i] ?? "")) c.i++;
}

/** Calls `onMember(key, cursor)` for each member of the object at the cursor; `onMember` must consume the value. */
function members(c: Cursor, onMember: (key: string) => void): void {
  ws(c);
  if (c.s[c.i] !== "{") {
    skipValue(c);
    return;
  }
  c.i++;
  for (;;) {
    ws(c);
    if (c.s[c.i] !== '"') {
      c.i++;
      return;
    }
    const key = readString(c);
    ws(c);
    c.i++; // the colon
    onMember(key);
    ws(c);
    if (c.s[c.i] === ",") c.i++;
  }
}

/**
 * True when the top-level `sysctl` object of this (valid JSON) text names a key twice.
 *
 * @example hasDuplicateSysctlKey('{"sysctl":{"a":"1","a":"2"}}') // true
 */
export function hasDuplicateSysctlKey(text: string): boolean {
  const c: Cursor = { s: text, i: 0 };
  const seen = new Set<string>();
  let dup = false;
  members(c, (key) => {
    if (key !== "sysctl") return skipValue(c);
    members(c, (k) => {
      if (seen.has(k)) dup = true;
      seen.add(k);
      skipValue(c);
    });
  });
  return dup;
}
