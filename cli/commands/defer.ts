import { writeDeferMarker } from "../../lib/store/defer-marker.ts";
import { printLine } from "../cli-context.ts";
import { answer, EXIT, refuse } from "../answer.ts";
import { defineCommand } from "../command.ts";
import { sessionForWrite } from "../session-for-write.ts";

export const deferCommand = defineCommand({
  name: "defer",
  summary: "silence the context advisory for this session until the next compaction or save",
  options: {},
  run(ctx) {
    const session = sessionForWrite(ctx);
    const out = session.ok
      ? writeDeferMarker(ctx.deps, ctx.paths, session.id)
      : { ok: false as const, reason: session.reason };
    if (!out.ok) return refuse(ctx, { reason: out.reason });
    if (ctx.json) return answer(ctx, { sentinel: out.file, message: out.message });
    printLine(ctx, out.message);
    return EXIT.done;
  },
});
