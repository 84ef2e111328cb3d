export { goJsonKind, goQuote, goTypeName } from "./names.ts";
export { goJsonSyntaxError, parseGoJson } from "./json-syntax.ts";
export { goMarshal, goMarshalBytes } from "./marshal.ts";
export { goFoldName, isJsonObject } from "../_gojson.ts";
export { type GoDecoded, type GoType, type GoTypeError, goDecodeInto } from "./decode-into.ts";
export { goHugeNumber, goRepeatsKeys } from "./json-scan.ts";
export { goDecodeUtf8 } from "./utf8.ts";
export { foldToSchema } from "./fold-schema.ts";
