import { claudeConfigDir } from "../../lib/core/config-dir.ts";
import { describeUsage, formatTokens } from "../../lib/context/context-window.ts";
import { measureUtilization } from "../../lib/context/context-utilization.ts";
import { transcriptPathFor } from "../../lib/store/session-id-resolve.ts";
import { printLine } from "../cli-context.ts";
import { answer, EXIT, exitFor, refuse } from "../answer.ts";
import { defineCommand } from "../command.ts";

export const statusCommand = defineCommand({
  name: "status",
  summary: "how full the context is now, from the end of the transcript",
  options: { transcript: { type: "string", hint: "PATH" } },
  run(ctx, values) {
    let transcript = values.transcript;
    let sid: string | undefined;
    const session = ctx.session();
    if (session.ok) sid = session.id;
    if (!transcript) {
      if (!session.ok)
        return refuse(
          ctx,
          {
            reason: `status: ${session.reason}; or pass --transcript PATH`,
            expected: "--transcript PATH",
          },
          { code: exitFor(ctx.sessionFlag === undefined ? "no session" : "bad value") },
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
    if (!u) {
      const missing = !ctx.deps.fs.existsSync(transcript);
      const reason =
        missing && sid !== undefined && !values.transcript
          ? `no transcript for session ${sid} at ${transcript}`
          : missing
            ? `no transcript at ${transcript}`
            : `${transcript} is not a Claude Code transcript (no line of it could be read)`;
      return refuse(
        ctx,
        { reason, expected: "a Claude Code .jsonl transcript" },
        { code: exitFor("no transcript"), text: `[checkpoint] ${reason}`, textTo: "stdout" },
      );
    }
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
