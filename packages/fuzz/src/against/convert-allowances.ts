/**
 * The NAMED differences `cni fuzz convert --against` accepts between us and libcni's
 * converter (issue 15): each one is a deliberate choice of ours or a trait of an older
 * library version, cited by SPEC id or by the compat test that documents it. Nothing else
 * is loosened: a disagreement no entry names is a failure.
 */
import { type Answer, canonical } from "./answer.ts";
import type { AgainstConvertCase } from "./convert.ts";
import type { Allowance } from "./differential.ts";

type Json = Record<string, unknown>;
const isObj = (x: unknown): x is Json => x !== null && typeof x === "object" && !Array.isArray(x);
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** `r` with `dns` taken out. */
function withoutDns(r: Json): Json {
  const { dns: _dns, ...rest } = r;
  return rest;
}

/** What the differential convert target accepts, and why. */
export const CONVERT_ALLOWANCES: readonly Allowance<AgainstConvertCase>[] = [
  {
    id: "go-v1.1-empty-dns-struct",
    reason:
      '§3.4: a 1.x result leaves an empty dns out; libcni v1.1 prints "dns":{} there (its omitempty does not omit a struct; fixed in later libcni). Same rule as scripts/compat/convert.compat.test.ts',
    applies: (_c, ours: Answer, theirs: Answer) =>
      "result" in ours &&
      "result" in theirs &&
      isObj(theirs.result) &&
      theirs.result.cniVersion === "1.0.0" &&
      same(theirs.result.dns, {}) &&
      isObj(ours.result) &&
      ours.result.dns === undefined &&
      same(canonical(withoutDns(theirs.result)), canonical(ours.result)),
  },
  {
    id: "missing-prefix-field",
    reason:
      'R-1: an IP-with-prefix field (ip, address, dst) is parsed as a CIDR, so a missing one is an error for us; libcni leaves the Go IPNet nil and prints "<nil>" or drops it (convert.compat.test.ts names the route case [DIFF])',
    applies: (_c, ours: Answer, theirs: Answer) =>
      "error" in ours && /missing required field "(ip|address|dst)"/.test(ours.error) && "result" in theirs,
  },
  {
    id: "null-array-entry",
    reason:
      "no SPEC rule yet (found by this fuzzer): a JSON null inside interfaces, ips or routes is no entry, and we refuse it as a decoding error (code 6); libcni v1.1 reads it as a nil pointer, prints it back as null, or panics on it (nil pointer dereference) when converting",
    applies: (_c, ours: Answer, theirs: Answer) =>
      "error" in ours &&
      /^invalid result: (interfaces|ips|routes)\[\d+\]: cannot unmarshal null into/.test(ours.error) &&
      ("result" in theirs || ("broken" in theirs && theirs.broken.includes("nil pointer dereference"))),
  },
];
