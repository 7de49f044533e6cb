import type { Deps } from "../core/deps.ts";
import type { GatherInput } from "./save-gather.ts";

// A save that knows nothing of the session: no session id, no transcript to read, and not one
// word from the model. The seed writes an "unknown" checkpoint anyway (it carries the model's
// words); with none there is nothing to keep, so this save writes nothing and says how to give it
// something. With any of the model's words it saves as the seed says (a warning, no sentinel).

/** The model's own words in a save request: any one of them makes the save worth keeping. */
function modelWords(req: GatherInput): boolean {
  const text = [req.task, req.intent, req.inProgress].some((t) => !!t?.trim());
  const lists = [
    req.blockers,
    req.nextUp,
    req.completed,
    req.notes,
    req.done ?? [],
    req.decisions ?? [],
    req.openQuestions ?? [],
  ].some((l) => l.length > 0);
  return text || lists;
}

export const NOTHING_TO_SAVE =
  "nothing to save: no session id, no transcript and no notes from the model; nothing written. Run /checkpoint inside Claude Code, or pass --session ID (its transcript is read), --transcript PATH, or the notes (--task, --in-progress, --next, or a document with --stdin-json)";

/** The refusal for a save that knows nothing of the session, null when it knows something. */
export function nothingToSave(
  deps: Pick<Deps, "fs">,
  req: GatherInput,
): { ok: false; reason: string } | null {
  if (req.sessionId || modelWords(req)) return null;
  if (req.transcriptPath && deps.fs.existsSync(req.transcriptPath)) return null;
  return { ok: false, reason: NOTHING_TO_SAVE };
}
