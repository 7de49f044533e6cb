import { resolveShowTarget } from "../../lib/restore/checkpoint-list.ts";
import { buildRestoreSnapshot } from "../../lib/restore/restore-snapshot.ts";
import { printJson, printLine, UsageError } from "../cli-context.ts";
import { defineCommand } from "../command.ts";
import { showShared } from "./shared-hook.ts";

export const showCommand = defineCommand({
  name: "show",
  summary: "print one checkpoint (a number from list, a file name, or a path)",
  args: "<N|file>",
  options: {},
  run(ctx, _values, positionals) {
    // With --json the answer is always one object, a refusal included.
    const refuse = (reason: string): number => {
      if (!ctx.json) throw new UsageError(`show: ${reason}`);
      printJson(ctx, { ok: false, reason });
      return 2;
    };
    const [arg] = positionals;
    if (!arg || positionals.length > 1)
      return refuse("expected one checkpoint: a number from list, a file name, or a path");
    if (/^s\d+$/i.test(arg)) return showShared(ctx, arg);
    const snap = buildRestoreSnapshot(ctx.deps.fs, ctx.paths, "", ctx.deps.now(), {
      checkpointWindowDays: Number.POSITIVE_INFINITY,
      headCachePid: ctx.deps.pid,
    });
    const target = resolveShowTarget(snap, arg);
    if (!target.ok) return refuse(target.reason);
    const text = ctx.deps.fs.readFileSync(target.file, "utf8");
    if (ctx.json) printJson(ctx, { ok: true, file: target.file, content: text });
    else {
      printLine(ctx, `--- ${target.file} ---`);
      printLine(ctx, text.trimEnd());
    }
    return 0;
  },
});
