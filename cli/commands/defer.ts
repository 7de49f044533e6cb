import { writeDeferMarker } from "../../lib/store/defer-marker.ts";
import { printLine, type CliContext } from "../cli-context.ts";
import { answer, EXIT, exitFor, refuse } from "../answer.ts";
import { defineCommand } from "../command.ts";
import { sessionForWrite } from "../session-for-write.ts";

/** Why there is no session to defer for, in the resolver's words (`no session id: pass --session ID ...`). */
function noSession(ctx: CliContext): string {
  if (ctx.sessionFlag !== undefined)
    return `--session ${JSON.stringify(ctx.sessionFlag)} names no session: pass --session ID`;
  const resolved = ctx.session();
  return resolved.ok ? "no session id" : resolved.reason;
}

export const deferCommand = defineCommand({
  name: "defer",
  summary: "stop the context warning for this session until the next compaction or save",
  options: {},
  run(ctx) {
    const session = sessionForWrite(ctx);
    if (!session.ok) return refuse(ctx, { reason: session.reason }, { code: exitFor("bad value") });
    if (session.id === null)
      return refuse(
        ctx,
        {
          reason: `defer: ${noSession(ctx)}; nothing written`,
          expected: "--session ID",
        },
        { code: exitFor("no session") },
      );
    const out = writeDeferMarker(ctx.deps, ctx.paths, session.id);
    if (!out.ok) return refuse(ctx, { reason: out.reason });
    if (ctx.json) return answer(ctx, { sentinel: out.file, message: out.message });
    printLine(ctx, out.message);
    return EXIT.done;
  },
});
