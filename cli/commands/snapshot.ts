import { writeSnapshotCheckpoint } from "../../lib/save/snapshot-save.ts";
import { FORCED_SAVE_STATUS } from "../../lib/save/skeleton-save.ts";
import { transcriptPathFor } from "../../lib/store/session-id-resolve.ts";
import { printLine, UsageError } from "../cli-context.ts";
import { answer, EXIT, exitFor, refuse } from "../answer.ts";
import { defineCommand } from "../command.ts";
import { sessionForWrite } from "../session-for-write.ts";

/**
 * `snapshot --kind forced`: the block tier's forced save with the transcript digest. The prompt
 * hook runs this (a separate process) so that its own bundle never loads the digest; on any
 * failure the hook writes the plain skeleton itself.
 */
export const snapshotCommand = defineCommand({
  name: "snapshot",
  summary:
    "a quick checkpoint from the transcript alone, left for the next session (the save when the context is full)",
  options: {
    kind: { type: "enum", values: ["forced"] as const },
    transcript: { type: "string", hint: "PATH" },
  },
  run(ctx, values) {
    if (values.kind !== "forced")
      throw new UsageError("snapshot: --kind is required; expected forced", "--kind forced");
    const session = sessionForWrite(ctx);
    if (!session.ok || !session.id) {
      const reason = `${session.ok ? (session.unavailable ?? "no session id") : session.reason}; nothing written`;
      const code = exitFor(session.ok ? "no session" : "bad value");
      return refuse(ctx, { reason }, { text: `[checkpoint] ${reason}`, code });
    }
    const transcript = values.transcript ?? transcriptPathFor(ctx.deps, ctx.cwd, session.id);
    const saved = writeSnapshotCheckpoint(ctx.deps, {
      paths: ctx.paths,
      transcriptPath: transcript,
      sessionId: session.id,
      launchCwd: ctx.cwd,
      status: FORCED_SAVE_STATUS,
      shape: "voluntary",
      writeSentinel: true,
      // The prompt hook waits on this save (a hot path): no git process; commits marked unchecked.
      gitCheck: { git: false },
    });
    const fields = {
      checkpoint: saved.checkpoint,
      sentinel: saved.sentinel,
      task: saved.task,
      bytes: saved.bytes,
      digest: saved.digest !== null,
    };
    if (ctx.json) return answer(ctx, fields);
    printLine(ctx, `Checkpoint saved to: ${saved.checkpoint}`);
    return EXIT.done;
  },
});
