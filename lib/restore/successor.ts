import type { CheckpointFile, MemoryListing } from "./memory-listing.ts";
import type { ParsedCheckpoint } from "../store/checkpoint-parse.ts";
import * as path from "node:path";
import { MIN_CHECKPOINT_BYTES } from "./memory-listing.ts";
import { withCommand } from "../core/checkpoint-command.ts";

/** Claude Code's --permission-mode values a person may choose for the successor. */
export const PERMISSION_MODES = ["default", "acceptEdits", "plan", "bypassPermissions"] as const;

/** What the successor may do without asking, said plainly (a `claude -p` session cannot ask). */
export function permissionNote(mode: string | null): string {
  if (mode === null || mode === "default") {
    return "the successor runs with the default permissions: every tool call that needs approval is refused in claude -p (pass --permission-mode acceptEdits, or allow the tools in settings)";
  }
  return `the successor runs with --permission-mode ${mode}`;
}

/** The pending-restore sentinels whose line 1 names this checkpoint. */
export function sentinelsNaming(snap: MemoryListing, checkpoint: string): string[] {
  const target = path.resolve(checkpoint);
  return snap.pendingRestores
    .filter((s) => s.firstLine !== "" && path.resolve(s.firstLine) === target)
    .map((s) => s.path);
}

/**
 * The predecessor is the most recently modified checkpoint (seed 001's hand-over to a fresh
 * session), skipping those `usable` turns down (a checkpoint that holds nothing of a session).
 */
export function newestCheckpoint(
  snap: MemoryListing,
  usable: (c: CheckpointFile) => boolean = () => true,
): CheckpointFile | null {
  const ordered = snap.checkpoints
    .filter((c) => c.size >= MIN_CHECKPOINT_BYTES)
    .sort((a, b) => b.mtimeMs - a.mtimeMs || (b.name > a.name ? 1 : b.name < a.name ? -1 : 0));
  return ordered.find(usable) ?? null;
}

/**
 * A checkpoint that knows nothing of its session: no session id and not one word from the model
 * (what a save with nothing to go on wrote before such saves were refused). A fresh `claude -p`
 * handed it would start from nothing while believing it resumes something.
 */
export function holdsNothing(p: ParsedCheckpoint): boolean {
  const none = (t: string | undefined | null) =>
    !t || /^\(?(none|unknown)[^)]*\)?$/i.test(t.trim());
  return (
    none(p.sessionId) &&
    none(p.task) &&
    none(p.intent) &&
    none(p.inProgress) &&
    p.nextUp.length === 0 &&
    p.done.length === 0 &&
    p.commits.length === 0 &&
    (p.blockers.length === 0 || p.blockers.every((b) => none(b))) &&
    none(p.decisions) &&
    none(p.openQuestions)
  );
}

const SUCCESSOR_INSTRUCTIONS = [
  "Resume the work of an earlier Claude Code session. Read its checkpoint below and check it against",
  "the repository before doing anything else:",
  "1. Open the plan file it names: the plan is the source of truth for task state.",
  "2. Completed this session: keep an entry as done only if its commit hash is in git log; drop the others as noise. Do not redo confirmed work.",
  "3. In progress is a hint, not fact: re-derive the true state from git status, git diff and the plan.",
  "4. Known blockers: re-check each one; clear those that no longer apply.",
  "5. Resume from Next up if its prerequisites are met; else resolve the blocker or take the next eligible plan task.",
  "You start fresh: count your own prompts and time from now, not the earlier session's. When you stop, write your own checkpoint",
  "with /checkpoint (it gets a new file; never overwrite this one).",
].join("\n");

/**
 * The prompt handed to `claude -p`: the instructions, what the engine already checked, and the
 * checkpoint inline. `command`: the checkpoint command of this install (checkpointCommand).
 */
export function successorPrompt(
  file: string,
  content: string,
  checked: readonly string[],
  command: string,
): string {
  const engine = checked.length
    ? `\nChecked by quoin-checkpoint just now:\n${checked.map((l) => `- ${l}`).join("\n")}\n`
    : "";
  return `${withCommand(SUCCESSOR_INSTRUCTIONS, command)}\n${engine}\n--- ${file} ---\n${content.trimEnd()}\n`;
}

/** POSIX shell quoting: one single-quoted word; a ' becomes '\''. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_./:=@%+-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, "'\\''")}'`;
}

export function shellCommand(argv: readonly string[]): string {
  return argv.map(shellQuote).join(" ");
}
