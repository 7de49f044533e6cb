import { hasHeader, parseBlockedPrompts, type BlockedPrompt } from "../store/pending-prompts.ts";
import { compareNames } from "../core/dir-listing.ts";

/** A pending-prompt-<sid>.txt file with its text. */
export interface PendingPromptSource {
  file: string;
  sid: string;
  mtimeMs: number;
  text: string;
}

export interface NumberedPrompt extends BlockedPrompt {
  n: number;
}

/**
 * Restore step 4 cases. A: no pending-prompt file. B: one for this session (block recovery).
 * C: only other sessions' files (stale; a mismatch warning comes first).
 */
export type ReplayCase =
  | { case: "A" }
  | {
      case: "B" | "C";
      source: PendingPromptSource;
      /** no `=== BLOCKED PROMPT [...] ===` header: the whole file is one prompt */
      legacy: boolean;
      entries: NumberedPrompt[];
      /** CASE C (only other sessions' held prompts): the mismatch warning line */
      warning?: string;
      /** CASE C: other sessions' files not shown */
      others: number;
    };

export type ReplaySelection =
  | { kind: "all" }
  | { kind: "numbers"; numbers: number[] }
  | { kind: "edit"; n: number }
  | { kind: "none" }
  | { kind: "delete" };

export type ParsedSelection =
  | { ok: true; selection: ReplaySelection }
  | { ok: false; reason: string };

const SELECTION_HELP = "expected all, none, delete, a number, numbers like 1,3, or 'edit N'";

/** The user's answer to "Replay which?": all / 2 / 1,3 / edit 1 / none (y, n and edit are the legacy [y / n / edit]). */
export function parseReplaySelection(raw: string): ParsedSelection {
  const answer = raw.trim().toLowerCase().replace(/\s+/g, " ");
  if (answer === "all" || answer === "y" || answer === "yes")
    return { ok: true, selection: { kind: "all" } };
  if (answer === "none" || answer === "n" || answer === "no")
    return { ok: true, selection: { kind: "none" } };
  if (answer === "delete") return { ok: true, selection: { kind: "delete" } };
  if (answer === "edit") return { ok: true, selection: { kind: "edit", n: 1 } };
  const edit = /^edit ?(\d+)$/.exec(answer);
  if (edit) return { ok: true, selection: { kind: "edit", n: Number(edit[1]) } };
  if (/^\d+( ?, ?\d+)*$/.test(answer)) {
    const numbers = [...new Set(answer.split(",").map((n) => Number(n.trim())))].sort(
      (a, b) => a - b,
    );
    return { ok: true, selection: { kind: "numbers", numbers } };
  }
  return { ok: false, reason: `--replay ${JSON.stringify(raw)}: ${SELECTION_HELP}` };
}

function numbered(
  text: string,
  keep: (e: BlockedPrompt) => boolean = () => true,
): NumberedPrompt[] {
  return parseBlockedPrompts(text)
    .filter((e) => e.text !== "" && keep(e))
    .map((e, i) => ({ ...e, n: i + 1 }));
}

function sourceOf(f: PendingPromptSource): PendingPromptSource {
  return { file: f.file, sid: f.sid, mtimeMs: f.mtimeMs, text: f.text };
}

/** What identifies a blocked prompt across restores: its header's timestamp and its length. */
export function promptKey(e: BlockedPrompt): string {
  return `${e.timestamp}#${e.text.length}`;
}

/**
 * Which case applies. CASE C offers only the file of `preferSid` (the session the restored
 * checkpoint came from) when that session is known, else the newest file. `replayed` holds, per
 * session, the prompts an earlier CASE C restore already replayed: they are not offered again, nor
 * is a file whose remaining entries are all non-replayable.
 */
export function classifyPendingPrompts(
  files: readonly PendingPromptSource[],
  currentSid: string,
  preferSid?: string | null,
  replayed: (sid: string) => ReadonlySet<string> = () => new Set(),
  claimed: (file: string, e: BlockedPrompt) => boolean = () => false,
): ReplayCase {
  // A prompt another restore already claimed (prompt-claims.ts) is offered to no one else.
  const usable = files
    .map((f) => ({ f, left: parseBlockedPrompts(f.text).filter((e) => !claimed(f.file, e)) }))
    .filter(({ f, left }) => f.text.trim() !== "" && left.some((e) => e.text !== ""))
    .map(({ f }) => ({ ...f, unclaimed: (e: BlockedPrompt) => !claimed(f.file, e) }));
  if (usable.length === 0) return { case: "A" };
  const own =
    currentSid !== "" && currentSid !== "unknown"
      ? usable.find((f) => f.sid === currentSid)
      : undefined;
  if (own)
    return {
      case: "B",
      source: sourceOf(own),
      legacy: !hasHeader(own.text),
      entries: numbered(own.text, own.unclaimed),
      others: 0,
    };
  const fresh = usable
    .map((f) => {
      const done = replayed(f.sid);
      return {
        f,
        entries: numbered(f.text, f.unclaimed)
          .filter((e) => !done.has(promptKey(e)))
          .map((e, i) => ({ ...e, n: i + 1 })),
      };
    })
    // a file left with only non-replayable entries (kept for audit) is not offered again
    .filter(
      (x) => x.entries.some((e) => !e.nonReplayable) && (!preferSid || x.f.sid === preferSid),
    );
  if (fresh.length === 0) return { case: "A" };
  const sorted = [...fresh].sort(
    (a, b) => b.f.mtimeMs - a.f.mtimeMs || compareNames(b.f.file, a.f.file),
  );
  const { f, entries } = sorted[0]!;
  const source = sourceOf(f);
  return {
    case: "C",
    source,
    legacy: !hasHeader(source.text),
    entries,
    warning: `Stale pending-prompt sentinel detected (session-id MISMATCH: was ${source.sid || "(none)"}, current ${currentSid || "unknown"}).`,
    others: usable.length - 1,
  };
}

export type ReplayResult =
  | {
      ok: true;
      /** prompts to emit as if the user typed them, oldest first */
      replay: NumberedPrompt[];
      /** edit N: the entry to show in full; the user pastes an edited version */
      edit: NumberedPrompt | null;
      /** Restore step 5: move the pending-prompt file to trash */
      trash: boolean;
    }
  | { ok: false; reason: string };

/**
 * Apply the user's choice. `all` skips non-replayable entries; an explicit number replays them.
 * CASE B (this session's held prompts) consumes the file on any answer; CASE C (another session's)
 * leaves it unless the answer is `delete`.
 */
export function applyReplaySelection(
  c: Exclude<ReplayCase, { case: "A" }>,
  selection: ReplaySelection,
): ReplayResult {
  const byNumber = (n: number) => c.entries.find((e) => e.n === n);
  const trash = c.case === "B" || selection.kind === "delete";
  switch (selection.kind) {
    case "all":
      return { ok: true, replay: c.entries.filter((e) => !e.nonReplayable), edit: null, trash };
    case "none":
    case "delete":
      return { ok: true, replay: [], edit: null, trash };
    case "edit": {
      const entry = byNumber(selection.n);
      if (!entry)
        return {
          ok: false,
          reason: `edit ${selection.n}: expected a number from 1 to ${c.entries.length}`,
        };
      return { ok: true, replay: [], edit: entry, trash };
    }
    case "numbers": {
      const missing = selection.numbers.filter((n) => !byNumber(n));
      if (missing.length > 0)
        return {
          ok: false,
          reason: `${missing.join(",")}: expected numbers from 1 to ${c.entries.length}`,
        };
      return { ok: true, replay: selection.numbers.map((n) => byNumber(n)!), edit: null, trash };
    }
  }
}

export function promptPreview(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}...` : flat;
}

/** The numbered list the user answers, as the seed shows it. */
export function replayMenu(c: Exclude<ReplayCase, { case: "A" }>): string[] {
  const lines: string[] = [];
  if (c.warning) lines.push(c.warning);
  if (c.legacy && c.entries.length === 1) {
    const only = c.entries[0]!;
    lines.push(c.case === "B" ? `Your previous prompt was: ${only.text}` : `Content: ${only.text}`);
    lines.push(c.case === "B" ? "Run it now? [y / n / edit]" : "Run it now? [y / n / delete]");
    return lines;
  }
  lines.push(`${c.entries.length} blocked prompt(s) were saved while context was overloaded:`);
  for (const e of c.entries)
    lines.push(
      `  ${e.n}. [${e.timestamp}]${e.nonReplayable ? " [non-replayable]" : ""} ${promptPreview(e.text)}`,
    );
  lines.push(`Replay which? [all / 1 / 1,3 / edit 1 / none${c.case === "C" ? " / delete" : ""}]`);
  if (c.entries.some((e) => e.nonReplayable))
    lines.push(
      "(Note: 'all' skips non-replayable entries; select by number to replay them individually.)",
    );
  return lines;
}
