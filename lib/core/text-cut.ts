import { sanitizeBody } from "./markdown-sections.ts";
import { TEXT_LIMITS } from "./text-limits.ts";

// Cutting text to one line of at most so many characters. Three cuts, by who reads the result:
// - cut: data (a path, a command, an error, a quoted request) cut at the character: whatever it
//   held up to the limit is kept, and no reader expects whole words of it;
// - cutWords: prose a person reads (a systemMessage, a title): cut at the last space when one lies
//   in the last 40 % of the room, so no word is split where a break exists; never over `max`;
// - cutAtWord: an option offered to a person (the picker): never half a word or half a path, so a
//   first word longer than `max` is kept whole (the one cut that may go over).
// All three collapse whitespace runs (newlines included) to one space and trim first, and end a
// cut text with `...`.

/** Whitespace runs (newlines included) as one space, trimmed. */
export const flatLine = (text: string): string => text.replace(/\s+/g, " ").trim();

/** One line, at most `max` characters, cut at the character, `...` where it was cut. */
export function cut(text: string, max: number): string {
  const flat = flatLine(text);
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 3)).trimEnd()}...`;
}

/**
 * One line of at most `max` characters, cut at the last space when one lies in the last 40 % of
 * the room (else at the character): prose a person or the model reads.
 */
export function cutWords(text: string, max: number): string {
  const flat = flatLine(text);
  if (flat.length <= max) return flat;
  const hard = flat.slice(0, Math.max(0, max - 3));
  const space = hard.lastIndexOf(" ");
  return `${(space > max * 0.6 ? hard.slice(0, space) : hard).trimEnd()}...`;
}

/**
 * One line of at most about `max` characters, cut only between words: an option offered to a
 * person never ends in half a word or half a path (a first word longer than `max` is kept whole).
 */
export function cutAtWord(text: string, max: number): string {
  const flat = flatLine(text);
  if (flat.length <= max) return flat;
  const space = flat.lastIndexOf(" ", max - 3);
  if (space > 0) return `${flat.slice(0, space).replace(/[\s,;:]+$/, "")}...`;
  const first = flat.indexOf(" ");
  return first < 0 ? flat : `${flat.slice(0, first)}...`;
}

/** One line as a checkpoint stores it: ASCII (sanitized), cut at the character. */
export function oneLine(text: string, max: number): string {
  return cut(sanitizeBody(text.replace(/\s+/g, " ")), max);
}

/** A line for the person: at most TEXT_LIMITS.personLine characters, cut between words. */
export const personLine = (text: string): string => cutWords(text, TEXT_LIMITS.personLine);
