/**
 * The syntax check Go's `json.Unmarshal` makes before decoding (encoding/json's scanner),
 * so that a config that is not JSON fails with the reference's exact words, e.g.
 * `invalid character 'g' looking for beginning of value` (§1.11 step 4).
 */

type Ctx = "object-key" | "object-value" | "array";
type State = (c: number) => State | string | undefined;

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/** Go's `quoteChar`: a byte as `strconv.Quote` writes it (read as a rune), in single quotes. */
function quoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return "'\"'";
  const named: Record<number, string> = {
    7: "\\a",
    8: "\\b",
    12: "\\f",
    10: "\\n",
    13: "\\r",
    9: "\\t",
    11: "\\v",
    0x5c: "\\\\",
  };
  const hex = (n: number, w: number) => n.toString(16).padStart(w, "0");
  if (named[c] !== undefined) return `'${named[c]}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${hex(c, 2)}'`;
  // U+0080..U+00A0 and the soft hyphen are not printable for strconv.IsPrint.
  if ((c >= 0x80 && c <= 0xa0) || c === 0xad) return `'\\u${hex(c, 4)}'`;
  return `'${String.fromCharCode(c)}'`;
}

/**
 * The error Go's json.Unmarshal reports for input that is not valid JSON, or undefined
 * when the input is valid JSON.
 *
 * @example goJsonSyntaxError(new TextEncoder().encode("garbage")) // "invalid character 'g' looking for beginning of value"
 */
export function goJsonSyntaxError(data: Uint8Array): string | undefined {
  const stack: Ctx[] = [];
  let endTop = false;
  const err = (c: number, context: string): string => `invalid character ${quoteChar(c)} ${context}`;

  const endValue: State = (c) => {
    const top = stack[stack.length - 1];
    if (top === undefined) {
      endTop = true;
      return endOfTop(c);
    }
    if (isSpace(c)) return endValue;
    if (top === "object-key") {
      if (c !== 0x3a) return err(c, "after object key");
      stack[stack.length - 1] = "object-value";
      return beginValue;
    }
    if (top === "object-value") {
      if (c === 0x2c) {
        stack[stack.length - 1] = "object-key";
        return beginString;
      }
      if (c !== 0x7d) return err(c, "after object key:value pair");
      stack.pop();
      return stack.length === 0 ? ((endTop = true), endOfTop) : endValue;
    }
    if (c === 0x2c) return beginValue;
    if (c !== 0x5d) return err(c, "after array element");
    stack.pop();
    return stack.length === 0 ? ((endTop = true), endOfTop) : endValue;
  };
  const endOfTop: State = (c) => (isSpace(c) ? endOfTop : err(c, "after top-level value"));
  const literal =
    (word: string, i: number): State =>
    (c) => {
      if (c !== word.charCodeAt(i)) return err(c, `in literal ${word} (expecting '${word[i]}')`);
      return i + 1 === word.length ? endValue : literal(word, i + 1);
    };
  const escU =
    (left: number): State =>
    (c) =>
      isHex(c) ? (left === 1 ? inString : escU(left - 1)) : err(c, "in \\u hexadecimal character escape");
  const inStringEsc: State = (c) => {
    if ('bfnrt\\/"'.includes(String.fromCharCode(c))) return inString;
    return c === 0x75 ? escU(4) : err(c, "in string escape code");
  };
  const inString: State = (c) => {
    if (c === 0x22) return endValue;
    if (c === 0x5c) return inStringEsc;
    return c < 0x20 ? err(c, "in string literal") : inString;
  };
  const e0: State = (c) => (isDigit(c) ? e0 : endValue(c));
  const eSign: State = (c) => (isDigit(c) ? e0 : err(c, "in exponent of numeric literal"));
  const exp: State = (c) => (c === 0x2b || c === 0x2d ? eSign : eSign(c));
  const dot0: State = (c) => (isDigit(c) ? dot0 : c === 0x65 || c === 0x45 ? exp : endValue(c));
  const dot: State = (c) => (isDigit(c) ? dot0 : err(c, "after decimal point in numeric literal"));
  const zero: State = (c) => (c === 0x2e ? dot : c === 0x65 || c === 0x45 ? exp : endValue(c));
  const digits: State = (c) => (isDigit(c) ? digits : zero(c));
  const neg: State = (c) => (c === 0x30 ? zero : isDigit(c) ? digits : err(c, "in numeric literal"));
  const beginString: State = (c) =>
    isSpace(c) ? beginString : c === 0x22 ? inString : err(c, "looking for beginning of object key string");
  const beginValue: State = (c) => {
    if (isSpace(c)) return beginValue;
    switch (c) {
      case 0x7b:
        stack.push("object-key");
        return (d) =>
          isSpace(d)
            ? undefined
            : d === 0x7d
              ? ((stack[stack.length - 1] = "object-value"), endValue(d))
              : beginString(d);
      case 0x5b:
        stack.push("array");
        return (d) => (isSpace(d) ? undefined : d === 0x5d ? endValue(d) : beginValue(d));
      case 0x22:
        return inString;
      case 0x2d:
        return neg;
      case 0x30:
        return zero;
      case 0x74:
        return literal("true", 1);
      case 0x66:
        return literal("false", 1);
      case 0x6e:
        return literal("null", 1);
    }
    return isDigit(c) ? digits : err(c, "looking for beginning of value");
  };

  let step: State = beginValue;
  const feed = (c: number): string | undefined => {
    const next = step(c);
    if (typeof next === "string") return next;
    if (next !== undefined) step = next; // undefined: stay (whitespace before a first key or element)
    return undefined;
  };
  for (const c of data) {
    const failure = feed(c);
    if (failure !== undefined) return failure;
  }
  // Go's scanner.eof: a space ends a pending number or literal, or reports it cut short.
  if (endTop) return undefined;
  const failure = feed(0x20);
  if (failure !== undefined) return failure;
  return endTop ? undefined : "unexpected end of JSON input";
}

/** Parses JSON; throws an Error whose message is Go's wording for the syntax error (E-5, RP-2). */
export function parseGoJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(goJsonSyntaxError(new TextEncoder().encode(text)) ?? "unexpected end of JSON input");
  }
}
