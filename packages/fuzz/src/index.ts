export type { Target } from "./target.ts";
export { describeThrown, judge, SLOW_MS } from "./target.ts";
export { replay, runTarget } from "./run.ts";
export type { Failure, Progress, RunOptions, RunReport } from "./run.ts";
export { configTarget, configTargetWith } from "./targets/config.ts";
export { judgePlugin, pluginsNamedIn } from "./targets/plugin-decoding.ts";
export type { PluginDecoding } from "./targets/plugin-decoding.ts";
export { convertTarget } from "./targets/convert.ts";
export type { ConvertCase } from "./targets/convert.ts";
export { anyLeaf, deepNesting, hostileNumber, hostileString, jsonText } from "./json.ts";
export {
  cniVersion,
  configDocument,
  configKey,
  hostileConfig,
  nearValidConfig,
  validConfList,
  typedConfigDocument,
  validPluginConfig,
} from "./configs.ts";
export { PLUGIN_FIELDS, typedPluginConfig } from "./plugin-fields.ts";
export { CORPUS, corpusDocument } from "./corpus.ts";
export { mutate, mutatedBytes, mutation } from "./bytes.ts";
export type { Mutation } from "./bytes.ts";
