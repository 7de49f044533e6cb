import * as path from "node:path";
import type { DamageKind } from "../restore/checkpoint-damage.ts";

// The SessionStart banner in words: the model's note and the person's one line, rendered from
// what the hook found (lib/hooks/restore-banner.ts). Paths, session ids and task names reduced to
// [a-z0-9-] only: no text of a checkpoint reaches either.

export type BannerKind = "own-restore" | "other-restore" | "reference" | "mid-agent";

/** What the banner is about, as data. */
export type BannerFacts =
  | {
      kind: "own-restore" | "other-restore";
      checkpoint: string;
      /** the session whose pending-restore names it */
      sid: string;
      task: string;
      damage?: DamageKind;
    }
  | { kind: "reference"; checkpoint: string; prior: string; task: string }
  | { kind: "mid-agent"; prior: string; task: string; skills: readonly string[] };

/** The banner the model reads (additionalContext). */
export function bannerText(b: BannerFacts): string {
  switch (b.kind) {
    case "own-restore":
    case "other-restore": {
      if (b.damage) {
        const whose =
          b.kind === "own-restore"
            ? "The checkpoint waiting for this session"
            : `The checkpoint another session (${b.sid}) left waiting`;
        return `[quoin-checkpoint] ${whose}, ${b.checkpoint}, is damaged: ${b.damage}. Nothing will be restored from it by itself; /checkpoint --restore shows its text and lists the other checkpoints.`;
      }
      if (b.kind === "own-restore")
        return `[quoin-checkpoint] A checkpoint for this session is waiting: ${b.checkpoint} (task '${b.task}'). Run /checkpoint --restore to resume from it.`;
      return (
        `[quoin-checkpoint] Another session (${b.sid}) left a checkpoint waiting: ${b.checkpoint} (task '${b.task}'). ` +
        "It belongs to that session, not this one. Run /checkpoint --restore to pick it up, or ignore it."
      );
    }
    case "reference":
      return (
        `[quoin-checkpoint] Reference checkpoint from session ${b.prior}: ${b.checkpoint} (task '${b.task}'). ` +
        "Treat it as read-only background; open it only if the user's work needs it."
      );
    case "mid-agent":
      return (
        `[quoin-checkpoint] Mid-agent handoff from session ${b.prior}: task '${b.task}', skills active then: ${b.skills.join(", ") || "(none)"}. ` +
        "Run /checkpoint --restore to reload it."
      );
  }
}

/** The banner's one short line for the person (systemMessage); the model gets the whole banner. */
export function bannerLine(b: BannerFacts): string {
  const file = "checkpoint" in b ? path.basename(b.checkpoint) : "";
  switch (b.kind) {
    case "own-restore":
    case "other-restore":
      if (b.damage)
        return `[quoin] the checkpoint waiting (${file}) is damaged: ${b.damage}; /checkpoint --restore shows it and lists the others`;
      return b.kind === "own-restore"
        ? `[quoin] a checkpoint of this session is waiting (${file}): /checkpoint --restore resumes it`
        : `[quoin] another session left a checkpoint (${file}): /checkpoint --restore picks it up`;
    case "reference":
      return `[quoin] reference checkpoint given to the model: ${file}`;
    case "mid-agent":
      return "[quoin] a mid-agent handoff is waiting: /checkpoint --restore reloads it";
  }
}
