export { CURRENT_VERSION, LEGACY_VERSIONS, VERSIONS, compareVersions, isKnownVersion, parseVersion, versionAtLeast, versionsStartingFrom } from "./version.ts";
export type { ParsedVersion, Version } from "./version.ts";
export { CniError, ErrorCode } from "./error.ts";
export type { CniErrorJson, ErrorCodeValue } from "./error.ts";
export type {
  Attachment,
  DNS,
  ErrorResult,
  IPAMConfig,
  IPConfig020,
  IPConfig040,
  IPConfig100,
  Interface040,
  Interface100,
  NetConfList,
  PluginConf,
  Result,
  Result020,
  Result040,
  Result100,
  ResultFamily,
  Route,
  VersionInfo,
} from "./types.ts";
