import { checkpointRowText, listCheckpoints } from "../../lib/restore/checkpoint-list.ts";
import { buildMemoryListing } from "../../lib/restore/memory-listing.ts";
import { printLine } from "../cli-context.ts";
import { answer, EXIT } from "../answer.ts";
import { defineCommand } from "../command.ts";
import { engineInvocation } from "../../lib/core/shell-quote.ts";
import { sharedCheckpointsOf, sharedListLines } from "./shared-hook.ts";

export const listCommand = defineCommand({
  name: "list",
  summary: "every checkpoint on disk, newest first (* = left to be restored)",
  options: {},
  run(ctx) {
    const snap = buildMemoryListing(ctx.deps.fs, ctx.paths, "", ctx.deps.now(), {
      checkpointWindowDays: Number.POSITIVE_INFINITY,
      headCachePid: ctx.deps.pid,
    });
    const rows = listCheckpoints(snap);
    const shared = sharedCheckpointsOf(ctx);
    if (ctx.json) return answer(ctx, { checkpoints: rows, folder: ctx.paths.checkpoints, shared });
    if (rows.length === 0) {
      printLine(ctx, `[checkpoint] no checkpoints in ${ctx.paths.checkpoints}`);
      for (const line of sharedListLines(ctx, shared)) printLine(ctx, line);
      return EXIT.done;
    }
    printLine(ctx, `${rows.length} checkpoint(s) in ${ctx.paths.checkpoints}:`);
    for (const r of rows) printLine(ctx, checkpointRowText(r));
    printLine(ctx, `show one with: ${engineInvocation(ctx.deps)} show N`);
    for (const line of sharedListLines(ctx, shared)) printLine(ctx, line);
    return EXIT.done;
  },
});
