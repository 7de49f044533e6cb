import * as path from "node:path";
import { describeThreshold, describeUsage } from "../context/context-window.ts";
import type { Utilization } from "../context/context-utilization.ts";
import type { SaveMode } from "./save-sentinel.ts";

export interface ReportInput {
  mode: SaveMode;
  checkpoint: string | null;
  sentinel: string | null;
  sid: string | null;
  activeSkills: string;
  highUtil: Utilization | null;
  /** this session's pending-restore names a checkpoint now, so a /compact would save nothing new */
  precompactSkips?: boolean;
  compactFirstBps: number;
}

/** Save step 5: the confirmation, its mode-specific next step, and the high-use notice with its two choices. */
export function saveReport(r: ReportInput): string[] {
  const lines = [
    `Checkpoint saved to: ${r.checkpoint ?? "(no checkpoint file - mid-agent mode)"}`,
    `Mode: ${r.mode}`,
    `Sentinel written: ${r.sentinel ?? "(none - session UUID empty/unknown)"}`,
  ];
  const sentinelName = r.sentinel ? path.basename(r.sentinel) : null;
  if (r.mode === "restore") {
    lines.push("To resume: /checkpoint --restore in a fresh session");
  } else if (r.mode === "load-as-reference") {
    if (sentinelName && r.sid) {
      lines.push(
        `Reference sentinel written: ${sentinelName}. Start a new session with: claude --resume ${r.sid} --fork-session`,
        "The new session will load this session as background context; the SessionStart hook will show a banner naming the reference checkpoint.",
      );
    } else {
      lines.push(
        "No reference sentinel (session UUID unknown): open the checkpoint file by path in a new session.",
      );
    }
  } else {
    if (sentinelName) lines.push(`Mid-agent handoff sentinel written: ${sentinelName}`);
    lines.push(`Active skills at save time: ${r.activeSkills || "(none)"}`);
    lines.push("To resume this session:");
    lines.push(
      "  Option 1: type /clear to reset context in this same session, then run /checkpoint --restore to reload the mid-agent handoff.",
    );
    lines.push(
      `  Option 2: start a new terminal session with: claude --resume ${r.sid ?? "<session id>"}, then run /checkpoint --restore there.`,
    );
  }
  if (r.highUtil)
    lines.push(...highUtilNotice(r.highUtil, r.compactFirstBps, r.precompactSkips === true));
  return lines;
}

function highUtilNotice(
  u: Utilization,
  compactFirstBps: number,
  precompactSkips = false,
): string[] {
  return [
    `The ${describeUsage(u.tokens, u.limit, u.bps)} is at or past ${describeThreshold(compactFirstBps, u.limit)} (QUOIN_COMPACT_FIRST_BPS). Checkpoint saved. To free context, choose one:`,
    "  1. Start a fresh session (run /checkpoint --restore there).",
    precompactSkips
      ? "  2. Run /compact in this session (this checkpoint stays the one to restore: PreCompact keeps it and writes none of its own; work done after this save is not in it)."
      : "  2. Run /compact in this session (the automatic precompact checkpoint will subsume this save; you do not need to re-run /checkpoint after).",
  ];
}

export function panicReport(
  u: Utilization,
  panicBps: number,
  checkpoint: string,
  sentinel: string | null,
): string[] {
  return [
    `[checkpoint] PANIC tier (${describeUsage(u.tokens, u.limit, u.bps)}, at or past ${describeThreshold(panicBps, u.limit)}): context too full for a full save. Minimal restore state saved.`,
    `Checkpoint: ${checkpoint}`,
    `Sentinel: ${sentinel ? path.basename(sentinel) : "(none - session UUID empty/unknown)"}`,
    "Start a fresh session and run /checkpoint --restore to resume.",
  ];
}

export function compactAlreadyRanReport(checkpoint: string): string[] {
  return [
    `[checkpoint] Auto-compact already ran in this session; the PreCompact hook wrote a checkpoint automatically. No additional /checkpoint needed. Auto-written checkpoint: ${checkpoint}`,
  ];
}
