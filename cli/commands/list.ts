import { listCheckpoints } from "../../lib/restore/checkpoint-list.ts";
import { checkpointRowText } from "../../lib/restore/brief/picker-rows.ts";
import { buildMemoryListing } from "../../lib/restore/memory-listing.ts";
import { pickerSettings } from "../../lib/restore/picker-decision.ts";
import { sharedCheckpointsOf, sharedListLines } from "../../lib/share/shared-for-restore.ts";
import { printLine } from "../cli-context.ts";
import { answer, EXIT } from "../answer.ts";
import { defineCommand } from "../command.ts";
import { engineInvocation } from "../../lib/core/shell-quote.ts";

export const listCommand = defineCommand({
  name: "list",
  summary: "every checkpoint on disk, newest first (* = left to be restored)",
  options: {},
  run(ctx) {
    const snap = buildMemoryListing(ctx.deps.fs, ctx.paths, "", ctx.deps.now(), {
      checkpointWindowDays: Number.POSITIVE_INFINITY,
      headCachePid: ctx.deps.pid,
    });
    const rows = listCheckpoints(snap, pickerSettings(ctx.knobs));
    const shared = sharedCheckpointsOf(ctx.deps, ctx.paths);
    if (ctx.json) return answer(ctx, { checkpoints: rows, folder: ctx.paths.checkpoints, shared });
    const engine = engineInvocation(ctx.deps);
    if (rows.length === 0) {
      printLine(ctx, `[checkpoint] no checkpoints in ${ctx.paths.checkpoints}`);
      for (const line of sharedListLines(shared, engine)) printLine(ctx, line);
      return EXIT.done;
    }
    printLine(ctx, `${rows.length} checkpoint(s) in ${ctx.paths.checkpoints}:`);
    for (const r of rows) printLine(ctx, checkpointRowText(r));
    // a command that runs as printed: the first row's number (the numbers are `restore --pick`'s too)
    printLine(ctx, `show one with: ${engine} show ${rows[0]!.n} (or another number above)`);
    for (const line of sharedListLines(shared, engine)) printLine(ctx, line);
    return EXIT.done;
  },
});
