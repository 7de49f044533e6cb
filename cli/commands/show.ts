import { readTextByRule } from "../../lib/core/file-range.ts";
import { resolveShowTarget } from "../../lib/restore/checkpoint-list.ts";
import { buildMemoryListing } from "../../lib/restore/memory-listing.ts";
import { printLine, UsageError } from "../cli-context.ts";
import { answer, EXIT, refuse } from "../answer.ts";
import { defineCommand } from "../command.ts";
import { showShared } from "./shared-hook.ts";

export const showCommand = defineCommand({
  name: "show",
  summary: "print one checkpoint (a number from list, a file name, or a path)",
  args: "<N|file>",
  options: {},
  run(ctx, _values, positionals) {
    // With --json the answer is always one object, a refusal included.
    const expected = "a number from list, a file name, or a path";
    const refused = (reason: string): number => {
      if (!ctx.json) throw new UsageError(`show: ${reason}`);
      return refuse(ctx, { reason, expected }, { code: EXIT.usage });
    };
    const [arg] = positionals;
    if (!arg || positionals.length > 1) return refused(`expected one checkpoint: ${expected}`);
    if (/^s\d+$/i.test(arg)) return showShared(ctx, arg);
    const snap = buildMemoryListing(ctx.deps.fs, ctx.paths, "", ctx.deps.now(), {
      checkpointWindowDays: Number.POSITIVE_INFINITY,
      headCachePid: ctx.deps.pid,
    });
    const target = resolveShowTarget(snap, arg);
    if (!target.ok) return refused(target.reason);
    const text = readTextByRule(ctx.deps.fs, target.file);
    if (ctx.json) return answer(ctx, { file: target.file, content: text });
    printLine(ctx, `--- ${target.file} ---`);
    printLine(ctx, text.trimEnd());
    return EXIT.done;
  },
});
