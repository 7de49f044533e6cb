import { checkpointRowText, listCheckpoints } from "../../lib/restore/checkpoint-list.ts";
import { buildRestoreSnapshot } from "../../lib/restore/restore-snapshot.ts";
import { printJson, printLine } from "../cli-context.ts";
import { defineCommand } from "../command.ts";
import { engineInvocation } from "../../lib/core/shell-quote.ts";
import { sharedCheckpointsOf, sharedListLines } from "./shared-hook.ts";

export const listCommand = defineCommand({
  name: "list",
  summary: "every checkpoint on disk, newest first (* = a pending-restore sentinel names it)",
  options: {},
  run(ctx) {
    const snap = buildRestoreSnapshot(ctx.deps.fs, ctx.paths, "", ctx.deps.now(), {
      checkpointWindowDays: Number.POSITIVE_INFINITY,
      headCachePid: ctx.deps.pid,
    });
    const rows = listCheckpoints(snap);
    const shared = sharedCheckpointsOf(ctx);
    if (ctx.json) {
      printJson(ctx, { checkpoints: rows, folder: ctx.paths.checkpoints, shared });
      return 0;
    }
    if (rows.length === 0) {
      printLine(ctx, `[checkpoint] no checkpoints in ${ctx.paths.checkpoints}`);
      for (const line of sharedListLines(ctx, shared)) printLine(ctx, line);
      return 0;
    }
    printLine(ctx, `${rows.length} checkpoint(s) in ${ctx.paths.checkpoints}:`);
    for (const r of rows) printLine(ctx, checkpointRowText(r));
    printLine(ctx, `show one with: ${engineInvocation(ctx.deps)} show N`);
    for (const line of sharedListLines(ctx, shared)) printLine(ctx, line);
    return 0;
  },
});
