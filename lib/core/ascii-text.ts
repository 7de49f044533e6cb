import anyAscii from "any-ascii";
import { sanitizeBody } from "./markdown-sections.ts";

/**
 * Free text for a checkpoint section: ASCII, as seed 001 asks, but transliterated (`café` ->
 * `cafe`, `Straße` -> `Strasse`) instead of `?`. Only the full save renders with it: any-ascii's
 * tables stay out of the prompt hook's bundle (its skeleton save holds no free text).
 */
export function asciiBody(text: string): string {
  return sanitizeBody(/[^\x09\x0A\x0D\x20-\x7E]/.test(text) ? anyAscii(text) : text);
}
