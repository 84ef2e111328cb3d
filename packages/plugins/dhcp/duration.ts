/**
 * Go's `time.ParseDuration` syntax for the daemon's flags (`-timeout 10s`,
 * `-resendmax 1m2s`), as the reference's flag package reads them.
 */

const UNITS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Milliseconds of a Go duration string; throws `invalid duration "x"` as Go does. */
export function parseGoDuration(text: string): number {
  const bad = (): never => {
    throw new Error(`invalid duration ${JSON.stringify(text)}`);
  };
  let s = text;
  let sign = 1;
  if (s.startsWith("-") || s.startsWith("+")) {
    sign = s.startsWith("-") ? -1 : 1;
    s = s.slice(1);
  }
  if (s === "0") return 0;
  if (s === "") bad();
  let total = 0;
  const re = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/;
  while (s.length > 0) {
    const m = re.exec(s);
    if (m === null) return bad();
    total += Number(m[1]) * (UNITS[m[2] as string] as number);
    s = s.slice(m[0].length);
  }
  return sign * total;
}
