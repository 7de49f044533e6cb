import { resolveShowTarget } from "../../../lib/checkpoint-list.ts";
import { buildRestoreSnapshot } from "../../../lib/restore-snapshot.ts";
import { printJson, printLine, UsageError } from "../cli-context.ts";
import type { Command } from "../command.ts";

export const showCommand: Command = {
  name: "show",
  summary: "print one checkpoint (a number from list, a file name, or a path)",
  usage: "show <N|file> [--cwd DIR] [--json]",
  options: {},
  positionals: true,
  run(ctx, _values, positionals) {
    const [arg] = positionals;
    if (!arg || positionals.length > 1) throw new UsageError("show: expected one checkpoint: a number from list, a file name, or a path");
    const snap = buildRestoreSnapshot(ctx.deps.fs, ctx.paths, "", ctx.deps.now(), { checkpointWindowDays: Number.POSITIVE_INFINITY });
    const target = resolveShowTarget(snap, arg);
    if (!target.ok) throw new UsageError(`show: ${target.reason}`);
    const text = ctx.deps.fs.readFileSync(target.file, "utf8") as string;
    if (ctx.json) printJson(ctx, { file: target.file, content: text });
    else {
      printLine(ctx, `--- ${target.file} ---`);
      printLine(ctx, text.trimEnd());
    }
    return 0;
  },
};
