import { claudeConfigDir } from "../../lib/core/config-dir.ts";
import { describeUsage, formatTokens } from "../../lib/context/context-window.ts";
import { measureUtilization } from "../../lib/context/context-utilization.ts";
import { transcriptPathFor } from "../../lib/store/session-id-resolve.ts";
import { printLine, UsageError } from "../cli-context.ts";
import { answer, EXIT, refuse } from "../answer.ts";
import { defineCommand } from "../command.ts";

export const statusCommand = defineCommand({
  name: "status",
  summary: "context utilization now, from the transcript's tail",
  options: { transcript: { type: "string", hint: "PATH" } },
  run(ctx, values) {
    let transcript = values.transcript;
    let sid: string | undefined;
    const session = ctx.session();
    if (session.ok) sid = session.id;
    if (!transcript) {
      if (!session.ok)
        throw new UsageError(
          `status: ${session.reason}; or pass --transcript PATH`,
          "--transcript PATH",
        );
      transcript = transcriptPathFor(ctx.deps, ctx.cwd, session.id);
    }
    const configDir = claudeConfigDir(ctx.deps.env, ctx.deps.home);
    const u = measureUtilization({
      deps: ctx.deps,
      transcriptPath: transcript,
      knobs: ctx.knobs,
      configDir,
      projectRoot: ctx.root,
      sessionId: sid,
    });
    if (!u)
      return refuse(
        ctx,
        { reason: `cannot read transcript ${transcript}`, expected: "a Claude Code .jsonl file" },
        {
          text: `[quoin] cannot read transcript ${transcript}: expected a Claude Code .jsonl file`,
          textTo: "stdout",
        },
      );
    if (ctx.json)
      return answer(ctx, {
        tokens: u.tokens,
        window: u.window,
        limit: u.limit,
        bps: u.bps,
        source: u.source,
        windowSource: u.windowSource,
        windowKnown: u.windowKnown,
      });
    const from =
      u.source === "usage"
        ? "last reply's usage"
        : u.source === "compact"
          ? "compaction boundary"
          : "transcript bytes (estimate, no usage data)";
    printLine(
      ctx,
      `${describeUsage(u.tokens, u.limit, u.bps)} from ${from}; window ${formatTokens(u.window)} (${u.windowFrom})`,
    );
    return EXIT.done;
  },
});
