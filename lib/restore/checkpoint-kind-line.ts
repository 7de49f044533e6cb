import type { CheckpointKind } from "../store/checkpoint-status.ts";

// The first line of the brief: whether the checkpoint holds the model's own notes (curated) or
// only what a hook could gather (automatic), and which hook.

export type KindLine = { kind: "curated"; line: string } | { kind: "automatic"; line: string };

const CURATED =
  "Checkpoint kind: curated (/checkpoint): it holds the model's own notes (done, in progress, next up).";

/** Why an automatic checkpoint was written, in words; a status this tool did not write is read loosely. */
function automaticWhy(k: Exclude<CheckpointKind, { kind: "voluntary" }>): string {
  if (k.kind === "precompact") return "PreCompact";
  if (k.kind === "forced") return "forced save";
  if (k.kind === "session-end") return "session end";
  if (k.kind === "panic") return "panic mode";
  const s = k.status;
  if (/precompact/i.test(s)) return "PreCompact";
  if (/forced/i.test(s)) return "forced save";
  if (/session end/i.test(s)) return "session end";
  return s ? s.replace(/^checkpoint save \(?|\)$/g, "") || "hook" : "status not recorded";
}

export function checkpointKindLine(k: CheckpointKind): KindLine {
  if (k.kind === "voluntary" || (k.kind === "other" && /\bcurated\b|\bvoluntary\b/i.test(k.status)))
    return { kind: "curated", line: CURATED };
  return {
    kind: "automatic",
    line: `Checkpoint kind: automatic (${automaticWhy(k)}): no notes of the model; the last words and commits are the record.`,
  };
}
