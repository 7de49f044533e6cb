import { readKnobs } from "../../lib/core/knobs.ts";
import { handleStatusLine, StatusLineInput } from "../../lib/context/statusline.ts";
import { printLine } from "../cli-context.ts";
import { defineCommand } from "../command.ts";

export const statuslineCommand = defineCommand({
  name: "statusline",
  summary: "status-line command (Claude Code's status-line JSON on stdin): records the session's context window, prints a gauge",
  options: { wrap: { type: "string", hint: "'THEIR COMMAND'" } },
  run(ctx, values) {
    const raw = ctx.readStdin();
    const wrap = values.wrap;
    let theirs = "";
    if (wrap) {
      // The user's own status line still prints, first, exactly as it would without us.
      const res = ctx.deps.run("sh", ["-c", wrap], { input: raw, timeoutMs: 5000, cwd: ctx.cwd });
      theirs = res.stdout.replace(/\s+$/, "");
    }
    let ours = "";
    try {
      const parsed = StatusLineInput.safeParse(JSON.parse(raw));
      if (parsed.success) ours = handleStatusLine(ctx.deps, parsed.data, readKnobs(ctx.deps.env, () => {})).line;
    } catch {
      // A status line never fails loudly: print what we have.
    }
    const line = [theirs, ours].filter((s) => s !== "").join(theirs.includes("\n") ? "\n" : " | ");
    if (line) printLine(ctx, line);
    return 0;
  },
});
