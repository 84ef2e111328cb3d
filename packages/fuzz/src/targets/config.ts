/**
 * `cni fuzz config`: bytes in, to our config parsers (libcni's NetworkConfFromBytes and
 * ConfListFromBytes, §2): a typed config or a CniError with a code and a message out
 * (decoding 6, invalid config 7, version 1); anything else is a failure.
 */
import { checkConfList, checkPluginConf, parseConfList, parsePluginConf } from "@tscni/config";
import { mutatedBytes } from "../bytes.ts";
import { configDocument } from "../configs.ts";
import { describeThrown, judge, type Target } from "../target.ts";

const CODES = [1, 6, 7];

/** Also the lint path (every issue, not only the first) must end cleanly. */
function lint(label: string, fn: () => readonly unknown[]): string | undefined {
  try {
    fn();
    return undefined;
  } catch (e) {
    return `${label}: ${describeThrown(e)}`;
  }
}

/** The config target over raw bytes. */
export const configTarget: Target<Uint8Array> = {
  name: "config",
  summary: "config bytes through our plugin and list parsers (and lint's checks)",
  arbitrary: mutatedBytes(configDocument),
  check(bytes) {
    return (
      judge("parsePluginConf", CODES, () => parsePluginConf(bytes)).failure ??
      judge("parseConfList", CODES, () => parseConfList(bytes)).failure ??
      lint("checkPluginConf", () => checkPluginConf(bytes)) ??
      lint("checkConfList", () => checkConfList(bytes))
    );
  },
  save: (bytes) => ({
    base64: Buffer.from(bytes).toString("base64"),
    text: new TextDecoder().decode(bytes).slice(0, 2000),
  }),
  load: (saved) => Uint8Array.from(Buffer.from(String((saved as { base64?: unknown }).base64 ?? ""), "base64")),
};
