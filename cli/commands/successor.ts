import { readTextByRule } from "../../lib/core/file-range.ts";
import { checkpointCommand } from "../../lib/core/checkpoint-command.ts";
import { readTextOrNull } from "../../lib/core/file-range.ts";
import { parseCheckpoint } from "../../lib/store/checkpoint-parse.ts";
import { reconcile } from "../../lib/restore/reconcile.ts";
import { reconcileLines } from "../../lib/restore/brief/reconcile-lines.ts";
import { buildMemoryListing } from "../../lib/restore/memory-listing.ts";
import {
  holdsNothing,
  newestCheckpoint,
  PERMISSION_MODES,
  permissionNote,
  sentinelsNaming,
  shellCommand,
  successorPrompt,
} from "../../lib/restore/successor.ts";
import { cleanupAfterRestore } from "../../lib/restore/restore-cleanup.ts";
import { printJson, printLine } from "../cli-context.ts";
import { answer, EXIT, refuse } from "../answer.ts";
import { defineCommand } from "../command.ts";

// A successor session may run for a long time; Deps.run's default deadline is for quick tools.
const LAUNCH_TIMEOUT_MS = 12 * 60 * 60 * 1000;

export const successorCommand = defineCommand({
  name: "successor",
  summary: "hand the newest checkpoint to a fresh `claude -p` session (printed; --launch runs it)",
  options: {
    launch: { type: "boolean" },
    "permission-mode": { type: "enum", values: PERMISSION_MODES },
  },
  run(ctx, values) {
    const mode = values["permission-mode"] ?? null;
    // Seed 001's snippet, in code: the newest checkpoint, or stop early.
    const snap = buildMemoryListing(ctx.deps.fs, ctx.paths, "", ctx.deps.now(), {
      checkpointWindowDays: 0,
    });
    const empty: string[] = [];
    const newest = newestCheckpoint(snap, (c) => {
      const text = readTextOrNull(ctx.deps.fs, c.path);
      if (text !== null && !holdsNothing(parseCheckpoint(text))) return true;
      empty.push(c.name);
      return false;
    });
    if (!newest) {
      const skipped = empty.length
        ? ` (${empty.length} hold nothing of a session: no session id and no notes, e.g. ${empty[0]})`
        : "";
      return refuse(
        ctx,
        { reason: `no checkpoint to resume from${skipped}` },
        {
          text: `[checkpoint] no checkpoint to resume from in ${ctx.paths.checkpoints}${skipped}`,
          textTo: "stdout",
        },
      );
    }
    const content = readTextByRule(ctx.deps.fs, newest.path);
    const checked = reconcileLines(reconcile(ctx.deps, ctx.root, parseCheckpoint(content)));
    const argv = [
      "claude",
      "-p",
      successorPrompt(newest.path, content, checked, checkpointCommand(ctx.deps)),
      ...(mode ? ["--permission-mode", mode] : []),
    ];
    const command = shellCommand(argv);
    const permissions = permissionNote(mode);
    if (!values.launch) {
      if (ctx.json)
        return answer(ctx, {
          checkpoint: newest.path,
          argv,
          command,
          launched: false,
          permissions,
        });
      printLine(
        ctx,
        `# successor for ${newest.path} (run from ${ctx.root})\n# ${permissions}\n${command}`,
      );
      return EXIT.done;
    }
    // The successor takes the checkpoint over as a restore would: the predecessor's pending-restore
    // naming it goes to trash, so no later banner or picker offers it as still waiting.
    const consumed = sentinelsNaming(snap, newest.path).flatMap(
      (sentinel) =>
        cleanupAfterRestore(ctx.deps, ctx.paths, {
          sessionId: "",
          keepOwn: true,
          consumedSentinelPath: sentinel,
          pendingPromptFile: null,
        }).trashed,
    );
    if (!ctx.json) printLine(ctx, `[checkpoint] ${permissions}`);
    const res = ctx.deps.run(argv[0]!, argv.slice(1), {
      cwd: ctx.root,
      timeoutMs: LAUNCH_TIMEOUT_MS,
    });
    if (ctx.json)
      printJson(ctx, {
        ok: res.status === 0,
        checkpoint: newest.path,
        argv,
        command,
        launched: true,
        permissions,
        consumed,
        status: res.status,
        stdout: res.stdout,
        stderr: res.stderr,
      });
    else {
      if (res.stdout) printLine(ctx, res.stdout.trimEnd());
      if (res.status !== 0)
        ctx.deps.warn(
          `[checkpoint] claude -p exited ${res.status ?? "(not started)"}: ${res.stderr.trim().split("\n").slice(-1)[0] ?? ""}`,
        );
    }
    // a launched successor that failed: its answer is refused (ok false) but carries the run's fields
    return res.status === 0 ? EXIT.done : EXIT.refused;
  },
});
