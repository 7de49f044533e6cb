import { claudeConfigDir } from "../../lib/core/config-dir.ts";
import { renderStatusLine } from "../../lib/context/statusline.ts";
import { printLine } from "../cli-context.ts";
import type { Command } from "../command.ts";

// Kept for status lines installed before dist/statusline.mjs existed (`quoin-checkpoint.mjs
// statusline`); setup now registers the small bundle, which does the same on each draw.
export const statuslineCommand: Command = {
  name: "statusline",
  summary: "status-line command (older installs; setup now registers statusline.mjs): records the window, prints a gauge",
  usage: "statusline [--wrap 'THEIR COMMAND']  (Claude Code's status-line JSON on stdin)",
  options: { wrap: { type: "string" } },
  run(ctx, values) {
    const wrap = typeof values["wrap"] === "string" ? values["wrap"] : undefined;
    const line = renderStatusLine({ ...ctx.deps, cwd: ctx.cwd }, ctx.readStdin(), ctx.knobs, claudeConfigDir(ctx.deps.env, ctx.deps.home), wrap);
    if (line) printLine(ctx, line);
    return 0;
  },
};
