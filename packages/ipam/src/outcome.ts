/**
 * Errors as data inside the package (CONVENTIONS.md item 6): pure steps return an
 * outcome, and only the protocol edge turns a failure into a `CniError`.
 */

/** A value, or an error message in the upstream style. */
export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

/** A successful outcome. */
export function ok<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

/** A failed outcome carrying an upstream-style message. */
export function fail<T = never>(error: string): Outcome<T> {
  return { ok: false, error };
}
