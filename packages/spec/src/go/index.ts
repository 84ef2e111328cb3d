export { goJsonKind, goQuote, goTypeName } from "./names.ts";
export { goJsonSyntaxError } from "./json-syntax.ts";
