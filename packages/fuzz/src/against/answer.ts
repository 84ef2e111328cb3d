/**
 * What one implementation answered for one differential case (issue 15, `--against`): a
 * result object, an error (its message differs by design), or something outside the line
 * protocol (no line, not JSON, a crash on our side), which never agrees with anything.
 */

/** One side's answer to one request line. */
export type Answer = { readonly result: unknown } | { readonly error: string } | { readonly broken: string };

/** Reads one answer line of the protocol: a JSON object, `{"error": "..."}` being an error. */
export function readAnswer(line: string | undefined): Answer {
  if (line === undefined) return { broken: "no answer line" };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { broken: `not JSON: ${line.slice(0, 120)}` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return { broken: `not a JSON object: ${line.slice(0, 120)}` };
  const error = (value as Record<string, unknown>).error;
  return typeof error === "string" ? { error } : { result: value };
}

/** What kind of answer it is, for a disagreement line. */
export function answerKind(a: Answer): "result" | "error" | "broken" {
  return "result" in a ? "result" : "error" in a ? "error" : "broken";
}

/** A JSON value with object keys sorted at every level, for comparisons that ignore key order. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object") return value;
  const obj = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(obj)
      .sort()
      .map((k) => [k, canonical(obj[k])]),
  );
}

/**
 * The first path where two JSON values differ (`$` for the top, `.ips[]` with array
 * indexes left out so one class of difference has one name), or undefined when equal.
 */
export function firstDifference(a: unknown, b: unknown, path = "$"): string | undefined {
  if (JSON.stringify(canonical(a)) === JSON.stringify(canonical(b))) return undefined;
  const isObj = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === "object";
  if (!isObj(a) || !isObj(b) || Array.isArray(a) !== Array.isArray(b)) return path;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path}[] (length)`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${path}[]`);
      if (d !== undefined) return d;
    }
    return path;
  }
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  for (const k of keys) {
    if (!(k in a) || !(k in b)) return `${path}.${k} (${k in a ? "only ours" : "only theirs"})`;
    const d = firstDifference(a[k], b[k], `${path}.${k}`);
    if (d !== undefined) return d;
  }
  return path;
}
