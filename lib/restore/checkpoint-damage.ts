import { TEXT_LIMITS } from "../core/text-limits.ts";
import { titleOf, type SectionKey } from "../store/checkpoint-sections.ts";

// What is wrong with a checkpoint file that cannot be restored as one, named for the person:
// nothing in it, not a checkpoint at all (binary bytes, no section), or cut short (its last line
// unfinished, or a checkpoint of this tool without the hint every one of them ends with).

/** Whether the text has the section `key` (its heading alone on a line). */
function hasSection(text: string, key: SectionKey): boolean {
  const heading = `## ${titleOf(key)}`;
  return text.split("\n").some((l) => l.replace(/\r$/, "") === heading);
}

export type DamageKind = "empty" | "not a checkpoint" | "cut short";

/** A checkpoint this tool writes is at most a few KB; a file this large is not one. */
export const CHECKPOINT_READ_CAP = 64 * 1024;

// C0 controls but tab, newline and carriage return; DEL; the replacement character a byte that is
// not UTF-8 decodes to.
const NON_PRINTING = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd]/g;

/** Why this text is not a checkpoint, or null when it reads as one. `size`: the file's size in bytes. */
export function damageOf(text: string, size: number): DamageKind | null {
  if (size === 0 || text.trim() === "") return "empty";
  if (size > CHECKPOINT_READ_CAP) return "not a checkpoint";
  const odd = text.match(NON_PRINTING)?.length ?? 0;
  if (odd > 0 && (text.includes("\u0000") || odd * 20 > text.length)) return "not a checkpoint";
  if (!/^## \S/m.test(text)) return "not a checkpoint";
  if (!text.endsWith("\n")) return "cut short";
  // restore needs both; every checkpoint written here or by the seed has them
  if (!hasSection(text, "task") || !hasSection(text, "branch")) return "cut short";
  if (
    hasSection(text, "status") &&
    hasSection(text, "sessionId") &&
    !hasSection(text, "restoreHint")
  )
    return "cut short";
  return null;
}

/** The first TEXT_LIMITS.damagedShownBytes of a damaged file as text a terminal shows: non-printing bytes as `?`. */
export function shownHead(text: string): string {
  const head = Buffer.from(text, "utf8")
    .subarray(0, TEXT_LIMITS.damagedShownBytes)
    .toString("utf8");
  return head.replace(NON_PRINTING, "?");
}

/** `damaged: cut short` as a row or a warning says it. */
export const damageNote = (d: DamageKind): string => `damaged: ${d}`;
