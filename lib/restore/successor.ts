import type { CheckpointFile, MemoryListing } from "./memory-listing.ts";
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

/** Seed 001 save-and-spawn-successor: the predecessor is the most recently modified checkpoint. */
export function newestCheckpoint(snap: MemoryListing): CheckpointFile | null {
  let best: CheckpointFile | null = null;
  for (const c of snap.checkpoints) {
    if (c.size < MIN_CHECKPOINT_BYTES) continue;
    if (!best || c.mtimeMs > best.mtimeMs || (c.mtimeMs === best.mtimeMs && c.name > best.name))
      best = c;
  }
  return best;
}

const SUCCESSOR_INSTRUCTIONS = [
  "Resume the work of a predecessor Claude Code session. Read the checkpoint below and reconcile it",
  "before doing anything else (save-and-spawn-successor steps):",
  "1. Open the plan file it names: the plan is the source of truth for task state.",
  "2. Completed this session: keep an entry as done only if its commit hash is in git log; drop the others as noise. Do not redo confirmed work.",
  "3. In progress is a hint, not fact: re-derive the true state from git status, git diff and the plan.",
  "4. Known blockers: re-check each one; clear those that no longer apply.",
  "5. Resume from Next up if its prerequisites are met; else resolve the blocker or take the next eligible plan task.",
  "Reset any rotation budget to zero (fresh prompt count and clock). When you stop, write your own checkpoint",
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
