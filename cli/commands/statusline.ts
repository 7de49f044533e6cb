import { claudeConfigDir } from "../../lib/core/config-dir.ts";
import { renderStatusLine } from "../../lib/context/statusline.ts";
import { printLine } from "../cli-context.ts";
import { defineCommand } from "../command.ts";
import { EXIT } from "../answer.ts";

// Kept for status lines installed before dist/statusline.cjs existed (`quoin-checkpoint.mjs
// statusline`); setup now registers the small bundle, which does the same on each draw.
export const statuslineCommand = defineCommand({
  name: "statusline",
  summary:
    "the status-line command of older installs: records the context window, prints a usage gauge",
  options: {
    wrap: { type: "string", hint: "'THEIR COMMAND'" },
    quiet: { type: "boolean" },
  },
  run(ctx, values) {
    const line = renderStatusLine(
      { ...ctx.deps, cwd: ctx.cwd },
      ctx.readStdin(),
      ctx.knobs,
      claudeConfigDir(ctx.deps.env, ctx.deps.home),
      values.wrap,
      values.quiet,
    );
    if (line) printLine(ctx, line);
    return EXIT.done;
  },
});
