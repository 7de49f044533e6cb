import * as path from "node:path";
import { ANY_ASCII_BUNDLE } from "../install/install-layout.ts";

// What `any-ascii` is inside the engine bundle (scripts/build.ts resolves it here): its tables are
// half a megabyte, which node would parse on every engine start, while only a save with non-ASCII
// free text needs them. So they sit in their own file beside the engine (ANY_ASCII_BUNDLE) and are
// loaded on the first call. Only the CommonJS bundle runs this file: `require` and `__dirname` are
// the bundle's own; tsx and the tests import the real package.

type Transliterate = (text: string) => string;
let _transliterate: Transliterate | undefined;

/** One `?` per non-ASCII character: the checkpoint stays ASCII when the tables are not there. */
function questionMarks(text: string): string {
  return text.replace(/[^\x00-\x7F]/gu, "?");
}

function _load(): Transliterate {
  try {
    const m = require(path.join(__dirname, ANY_ASCII_BUNDLE)) as { default?: unknown };
    const fn = m.default ?? m;
    if (typeof fn === "function") return fn as Transliterate;
  } catch {
    // missing (an engine copied alone) or broken: `?` rather than a failed save
  }
  return questionMarks;
}

// NOTE: a default export, against the house rule: it stands in for any-ascii's own default export.
export default function anyAscii(text: string): string {
  _transliterate ??= _load();
  try {
    return _transliterate(text);
  } catch {
    return questionMarks(text);
  }
}
