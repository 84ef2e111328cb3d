/**
 * The NAMED differences `cni fuzz config --against` accepts between our config parsers
 * and libcni's (issue 15): each a rule of the libcni that SPEC.md follows (upstream main,
 * v1.3) which Debian's older libcni v1.1 lacks, cited by SPEC id. A disagreement no entry
 * names is a failure.
 */
import { type Answer, canonical } from "./answer.ts";
import type { AgainstConfigCase } from "./config.ts";
import type { Allowance } from "./differential.ts";

const text = (c: AgainstConfigCase): string => new TextDecoder().decode(c.bytes);
const same = (a: unknown, b: unknown): boolean => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** What the differential config target accepts, and why. */
export const CONFIG_ALLOWANCES: readonly Allowance<AgainstConfigCase>[] = [
  {
    id: "list-without-plugins",
    reason:
      "§2.6 step 6, CF-3, DI-1 (libcni v1.3): a list without `plugins` parses, its plugins may come from drop-ins; libcni v1.1 refuses it (no 'plugins' key)",
    applies: (c, ours: Answer, theirs: Answer) =>
      c.list &&
      "result" in ours &&
      same((ours.result as { plugins?: unknown }).plugins, []) &&
      "error" in theirs &&
      theirs.error.endsWith("no 'plugins' key"),
  },
  {
    id: "newer-list-keys",
    reason:
      "§2.6 steps 4-5, VN-2 (spec 1.1.0, libcni v1.2+): `cniVersions` picks the list version, and `disableGC` and `loadOnlyInlinedPlugins` are checked like `disableCheck`; libcni v1.1 ignores all three",
    applies: (c, ours: Answer, theirs: Answer) => {
      if (!c.list) return false;
      if ("error" in ours && "result" in theirs)
        return /^(disableGC|loadOnlyInlinedPlugins|cniVersions)\b.*error parsing configuration list: (invalid|`loadOnlyInlinedPlugins`)/.test(
          ours.error,
        );
      if ("result" in ours && "result" in theirs && text(c).includes('"cniVersions"'))
        return same({ ...(ours.result as object), cniVersion: "" }, { ...(theirs.result as object), cniVersion: "" });
      return false;
    },
  },
];
