import type { CommitRef } from "../store/checkpoint-values.ts";
import type { ParsedCheckpoint } from "../store/checkpoint-parse.ts";
import { cut } from "../core/text-cut.ts";
import { firstOf } from "../core/text-list.ts";
import { isDirtyNow } from "./status-summary.ts";

// Drift between a checkpoint and git now: a file of its uncommitted section that is clean again
// while HEAD did not move (its head section equals HEAD now), a listed commit not in this clone, and
// working-set files that no longer exist. Pure; reconcile.ts gathers the inputs.

const NAMES_IN_A_FLAG = 5;

const named = (list: readonly string[]) => firstOf(list, NAMES_IN_A_FLAG);

/** Drift between the checkpoint and git now, one line per kind of finding. Pure. */
export function gitDriftLines(input: {
  status: readonly string[];
  headNow: string | null;
  handover: Pick<ParsedCheckpoint, "head" | "uncommitted">;
  dropped: readonly CommitRef[];
  workingSet: readonly string[];
  exists: (relPath: string) => boolean;
}): string[] {
  const { handover: h } = input;
  const out: string[] = [];
  const sameHead = typeof h.head === "string" && h.head === input.headNow;
  const uncommitted = h.uncommitted ?? [];
  if (sameHead) {
    const clean = uncommitted
      .filter((u) => u.kind !== "deleted" || input.exists(u.path))
      .filter((u) => !isDirtyNow(u.path, input.status))
      .map((u) => u.path);
    if (clean.length)
      out.push(
        `uncommitted at the save, clean now with no commit since (reverted or lost?): ${named(clean)}`,
      );
  }
  const gone = input.dropped.map((c) => `${c.hash}${c.subject ? ` "${cut(c.subject, 60)}"` : ""}`);
  if (gone.length === 1) out.push(`commit ${gone[0]} is not in this clone`);
  else if (gone.length > 1)
    out.push(`${gone.length} commits are not in this clone: ${named(gone)}`);
  const deleted = new Set(uncommitted.filter((u) => u.kind === "deleted").map((u) => u.path));
  const vanished = input.workingSet.filter((p) => !deleted.has(p) && !input.exists(p));
  if (vanished.length) out.push(`working-set files that no longer exist: ${named(vanished)}`);
  return out;
}
