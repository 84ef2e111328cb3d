/**
 * The corpus byte mutations start from (issue 15 item 1): real network configs from the
 * reference plugins' own tests (corpus/reference.json, one per plugin feature they test),
 * each also wrapped as a one-plugin list the way libcni's ConfListFromConf does.
 */
import fc from "fast-check";
import reference from "./corpus/reference.json" with { type: "json" };

const configs = (reference as { configs: { source: string; json: Record<string, unknown> }[] }).configs;

/** Each corpus document as JSON text: the config itself, and single configs as a list. */
export const CORPUS: readonly string[] = configs.flatMap(({ json }) => {
  const own = JSON.stringify(json, null, json.plugins === undefined ? 0 : 2);
  if (json.plugins !== undefined) return [own];
  const { cniVersion, name, ...plugin } = json;
  return [own, JSON.stringify({ cniVersion, name, plugins: [plugin] })];
});

/** A document of the corpus. */
export const corpusDocument: fc.Arbitrary<string> = fc.constantFrom(...CORPUS);
