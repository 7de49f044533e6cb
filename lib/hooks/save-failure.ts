import type { Deps } from "../core/deps.ts";
import { claudeConfigDir } from "../core/config-dir.ts";
import { isUsableSessionId } from "../core/ids.ts";
import { utcIso } from "../core/time-format.ts";
import { deleteRegistry, readRegistry, writeRegistry } from "../store/session-registry.ts";
import { contextAnswer, type HookAnswer } from "./hook-io.ts";
import { saveFailureNote, type SaveFailure } from "../notes/failure-notes.ts";

export type { SaveFailure } from "../notes/failure-notes.ts";

// A save that failed is told, once, in words a person reads: never a raw errno. PreCompact and
// SessionEnd cannot speak to the person, so they leave a record outside the repository (the
// repository may be the very thing that cannot be written) and the session's next SessionStart
// or prompt says it (lib/notes/failure-notes.ts has the words).

/** The first error in the cause chain that carries a file system code (a wrapper says it in words). */
function rootCause(err: unknown): NodeJS.ErrnoException | null {
  for (let e = err as NodeJS.ErrnoException | null, depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === "string") return e;
    e = (e as { cause?: unknown }).cause as NodeJS.ErrnoException | null;
  }
  return null;
}

/** Why a write failed, in words: `read-only`, `disk full`, `folder missing`, else `write failed`. */
export function saveFailureReason(err: unknown): string {
  const code = rootCause(err)?.code;
  switch (code) {
    case "EROFS":
    case "EACCES":
    case "EPERM":
      return "read-only";
    case "ENOSPC":
    case "EDQUOT":
      return "disk full";
    case "ENOENT":
    case "ENOTDIR":
      return "folder missing";
    default:
      return "write failed";
  }
}

/** The reason with the file or folder it was about, when the error names one. */
export function saveFailureDetail(err: unknown): string {
  const where = rootCause(err)?.path;
  const reason = saveFailureReason(err);
  return typeof where === "string" && where !== "" ? `${reason}: ${where}` : reason;
}

/** Leave the record for this session's next SessionStart. Never throws (there may be nowhere to write). */
export function recordSaveFailure(deps: Deps, sid: string | null, failure: SaveFailure): boolean {
  if (!isUsableSessionId(sid)) return false;
  try {
    writeRegistry(deps, claudeConfigDir(deps.env, deps.home), "save-failed", sid, failure);
    return true;
  } catch {
    return false;
  }
}

/** This session's failure record, consumed; null when there is none. */
export function takeSaveFailure(deps: Deps, sid: string | null): SaveFailure | null {
  if (!isUsableSessionId(sid)) return null;
  const config = claudeConfigDir(deps.env, deps.home);
  const rec = readRegistry(deps, config, "save-failed", sid);
  if (!rec) return null;
  deleteRegistry(deps, config, "save-failed", sid);
  const text = (k: string) => (typeof rec[k] === "string" ? (rec[k] as string) : "");
  return {
    event: text("event"),
    reason: text("reason") || "write failed",
    at: text("at") || utcIso(deps.now()),
  };
}

/**
 * A hook's answer with the failure said first: for the model in additionalContext, for the person
 * as the one short line (at most 200 characters).
 */
export function withSaveFailure(
  answer: HookAnswer | null,
  f: SaveFailure,
  event: string,
): HookAnswer {
  const note = saveFailureNote(f);
  const before =
    answer && !("decision" in answer) ? answer.hookSpecificOutput?.additionalContext : undefined;
  return contextAnswer(event, before ? `${note.context}\n${before}` : note.context, note.person);
}
