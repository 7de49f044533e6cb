import { writeDeferMarker } from "../../lib/store/defer-marker.ts";
import { printJson, printLine } from "../cli-context.ts";
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
    if (ctx.json) {
      printJson(ctx, out.ok ? { ok: true, sentinel: out.file, message: out.message } : out);
    } else if (out.ok) {
      printLine(ctx, out.message);
    } else {
      ctx.deps.warn(out.reason);
    }
    return out.ok ? 0 : 1;
  },
});
