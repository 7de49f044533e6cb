import { cleanupSummary, runCleanup } from "../../lib/save/cleanup-sweep.ts";
import { utcDate } from "../../lib/core/time-format.ts";
import { printLine } from "../cli-context.ts";
import { answer, EXIT, exitFor, refuse } from "../answer.ts";
import { defineCommand } from "../command.ts";
import { sessionForWrite } from "../session-for-write.ts";
import { historyOutlookText } from "../../lib/share/share-prune.ts";
import { pruneSharedOf } from "../../lib/share/shared-for-restore.ts";

export const cleanupCommand = defineCommand({
  name: "cleanup",
  summary: "move stale markers and old checkpoints to trash/ (this session's are kept)",
  options: { "dry-run": { type: "boolean" } },
  run(ctx, values) {
    const session = sessionForWrite(ctx);
    if (!session.ok) {
      const reason = `${session.reason}; nothing moved`;
      return refuse(
        ctx,
        { reason },
        { text: `[checkpoint] ${reason}`, code: exitFor("bad value") },
      );
    }
    const warnings: string[] = [];
    if (session.id === null) {
      warnings.push(
        `[checkpoint] WARNING: ${session.unavailable ?? "session UUID unavailable"}; sentinel sweep skipped (fail safe), checkpoint sweep only`,
      );
    }
    const now = ctx.deps.now();
    const dryRun = values["dry-run"];
    const result = runCleanup(ctx.deps.fs, ctx.paths, now, {
      currentSessionId: session.id,
      sentinelWindowDays: ctx.knobs.QUOIN_CLEANUP_SENTINEL_WINDOW,
      checkpointWindowDays: ctx.knobs.QUOIN_CLEANUP_CKPT_WINDOW,
      trashDays: ctx.knobs.QUOIN_TRASH_DAYS,
      dryRun,
    });
    const shared = pruneSharedOf(
      ctx.deps,
      ctx.root,
      now,
      ctx.knobs.QUOIN_CLEANUP_CKPT_WINDOW,
      dryRun,
    );
    const line = cleanupSummary(ctx.paths, result, utcDate(now));
    if (ctx.json)
      return answer(ctx, {
        dryRun,
        sentinels: result.sentinels,
        checkpoints: result.checkpoints,
        temps: result.temps,
        purged: result.purged,
        failed: result.failed,
        warnings,
        summary: line,
        sharedPruned: shared.pruned,
        sharedSquashed: shared.squashed ?? null,
        sharedHistory: shared.history ?? null,
      });
    for (const w of warnings) ctx.deps.warn(w);
    if (dryRun)
      for (const f of [...result.sentinels, ...result.checkpoints, ...result.temps])
        printLine(ctx, `would trash: ${f}`);
    if (dryRun) for (const d of result.purged) printLine(ctx, `would delete: ${d}`);
    printLine(ctx, line);
    if (shared.pruned.length)
      printLine(
        ctx,
        `[checkpoint] ${dryRun ? "would prune" : "pruned"} ${shared.pruned.length} shared checkpoint(s) from refs/quoin/checkpoints${dryRun ? "" : " (pushed by the next share)"}`,
      );
    if (shared.history) printLine(ctx, `[checkpoint] ${historyOutlookText(shared.history)}`);
    if (shared.squashed)
      printLine(
        ctx,
        `[checkpoint] squashed the ${shared.squashed} commits of refs/quoin/checkpoints into one (the next share replaces the remote's)`,
      );
    return EXIT.done;
  },
});
