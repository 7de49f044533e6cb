import { readTextByRule } from "../../lib/core/file-range.ts";
import { resolveShowTarget } from "../../lib/restore/checkpoint-list.ts";
import { buildMemoryListing } from "../../lib/restore/memory-listing.ts";
import { pickerSettings } from "../../lib/restore/picker-decision.ts";
import { printLine, UsageError } from "../cli-context.ts";
import { answer, EXIT, refuse } from "../answer.ts";
import { defineCommand } from "../command.ts";
import { readShared } from "../../lib/share/shared-for-restore.ts";

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
    if (/^s\d+$/i.test(arg)) {
      const found = readShared(ctx.deps, ctx.paths, arg);
      if (!found.ok)
        return refuse(ctx, found, {
          text: `[checkpoint] show: ${found.reason} (expected: ${found.expected})`,
        });
      const c = found.shared;
      if (ctx.json) return answer(ctx, { shared: c, content: found.text });
      printLine(ctx, `--- ${c.label}: ${c.path} on ${c.remote}, shared by ${c.from} ---`);
      printLine(ctx, found.text.trimEnd());
      return EXIT.done;
    }
    const snap = buildMemoryListing(ctx.deps.fs, ctx.paths, "", ctx.deps.now(), {
      checkpointWindowDays: Number.POSITIVE_INFINITY,
      headCachePid: ctx.deps.pid,
    });
    const target = resolveShowTarget(snap, arg, pickerSettings(ctx.knobs));
    if (!target.ok) return refused(target.reason);
    const text = readTextByRule(ctx.deps.fs, target.file);
    if (ctx.json) return answer(ctx, { file: target.file, content: text });
    printLine(ctx, `--- ${target.file} ---`);
    printLine(ctx, text.trimEnd());
    return EXIT.done;
  },
});
