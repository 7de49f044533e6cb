import { failureText } from "../../lib/core/fs-error-words.ts";
import { formatBps } from "../../lib/context/context-window.ts";
import {
  nextUpFromFlags,
  parseSaveDocument,
  type SaveDocument,
} from "../../lib/save/save-document.ts";
import { SAVE_MODES } from "../../lib/save/save-sentinel.ts";
import { runSave } from "../../lib/save/save.ts";
import type { SaveOutcome, SaveRequest } from "../../lib/save/save-run.ts";
import { transcriptPathFor } from "../../lib/store/session-id-resolve.ts";
import { printJson, printLine, type CliContext } from "../cli-context.ts";
import { defineCommand } from "../command.ts";
import { EXIT, exitFor, refuse as refuseWith } from "../answer.ts";
import { sessionForWrite } from "../session-for-write.ts";
import { autoShare, autoShareOn, type AutoShare } from "../../lib/share/share-auto.ts";
import {
  dropAskedDocument,
  keepAskedDocument,
  takeAskedDocument,
} from "../../lib/save/asked-document.ts";

/** The skill's budget for the model's document, in characters (the engine says how long it was). */
const DOCUMENT_BUDGET_CHARS = 3000;

// needsMode is a question to ask, not a refusal: it exits 0 by EXIT's table.
function refuse(ctx: CliContext, reason: string, extra: Record<string, unknown> = {}): number {
  const code = extra["needsMode"] === true ? EXIT.done : EXIT.refused;
  return refuseWith(ctx, { reason }, { code, extra, text: `[checkpoint] ${reason}` });
}

function print(
  ctx: CliContext,
  out: SaveOutcome,
  shared: AutoShare | null = null,
  documentChars: number | null = null,
): number {
  if (!out.ok && out.needsMode) {
    // An answer is needed, not a refusal: exit 0 (0 done or needs an answer, 1 refused, 2 bad usage).
    // The question is worded in lib/save (out.ask), so the SKILL.md stays small.
    refuse(ctx, out.reason, { needsMode: true, activeSkills: out.activeSkills, ask: out.ask });
    return 0;
  }
  if (!out.ok) return refuse(ctx, out.reason);
  if (ctx.json) {
    const u = out.utilization;
    printJson(ctx, {
      ok: true,
      mode: out.mode,
      checkpoint: out.checkpoint,
      sentinel: out.sentinel,
      warnings: out.warnings,
      activeSkills: out.activeSkills,
      highUtil: out.highUtil,
      utilization: u
        ? {
            tokens: u.tokens,
            limit: u.limit,
            window: u.window,
            bps: u.bps,
            percent: formatBps(u.bps),
          }
        : null,
      cleanup: out.cleanup
        ? { sentinels: out.cleanup.sentinels.length, checkpoints: out.cleanup.checkpoints.length }
        : null,
      cleanupLine: out.cleanupLine,
      ledger: out.ledger,
      bytes: out.bytes,
      documentChars,
      report: out.report,
      ...(shared ? { shared } : {}),
    });
    return EXIT.done;
  }
  for (const w of out.warnings) ctx.deps.warn(w);
  for (const line of out.report) printLine(ctx, line);
  if (shared) printLine(ctx, sharedLine(shared));
  return EXIT.done;
}

export const saveCommand = defineCommand({
  name: "save",
  summary: "save where this session stands, in a checkpoint a fresh session can resume from",
  options: {
    mode: { type: "enum", values: SAVE_MODES },
    "ask-mode": { type: "boolean" },
    asked: { type: "boolean" },
    "no-cleanup": { type: "boolean" },
    "after-compact": { type: "boolean" },
    task: { type: "string", hint: "NAME" },
    intent: { type: "string", hint: "TEXT" },
    note: { type: "string", hint: "TEXT", multiple: true },
    "in-progress": { type: "string", hint: "TEXT" },
    next: { type: "string", hint: "ITEM", multiple: true },
    "next-blocked": { type: "string", hint: "ITEM", multiple: true },
    blocker: { type: "string", hint: "TEXT", multiple: true },
    "stdin-json": { type: "boolean" },
    transcript: { type: "string", hint: "PATH" },
  },
  run(ctx, values) {
    const session = sessionForWrite(ctx);
    if (!session.ok)
      return refuseWith(
        ctx,
        { reason: `${session.reason}; nothing written` },
        { code: exitFor("bad value"), text: `[checkpoint] ${session.reason}; nothing written` },
      );

    const sid = session.id;
    // The document: from stdin (a pipe or a quoted heredoc), or the one --ask-mode kept for the
    // answer `--mode M --asked`, so the model pipes its JSON once.
    let raw: string | null = values["stdin-json"] ? ctx.readStdin() : null;
    const flagged =
      values.task !== undefined ||
      values.intent !== undefined ||
      values["in-progress"] !== undefined ||
      values.next.length +
        values["next-blocked"].length +
        values.blocker.length +
        values.note.length >
        0;
    if (raw === null && values.asked && values.mode && sid && !flagged) {
      const kept = takeAskedDocument(ctx.deps, ctx.paths, sid);
      if (!kept.ok)
        return refuse(
          ctx,
          `no document kept for this session (${kept.reason === "expired" ? "the one --ask-mode kept is older than 10 minutes" : "--ask-mode keeps it 10 minutes"}); nothing written: run save --mode ${values.mode} --asked --stdin-json with the document again`,
        );
      raw = kept.raw;
    } else if (raw !== null && sid) dropAskedDocument(ctx.deps, ctx.paths, sid);
    let doc: SaveDocument = {};
    if (raw !== null) {
      const parsed = parseSaveDocument(raw);
      if (!parsed.ok) return refuse(ctx, `${parsed.reason}; nothing written`);
      doc = parsed.value;
    }
    const documentChars = raw === null ? null : raw.trim().length;
    const transcript =
      values.transcript ?? (sid ? transcriptPathFor(ctx.deps, ctx.cwd, sid) : null);
    const request: SaveRequest = {
      paths: ctx.paths,
      launchCwd: ctx.cwd,
      sessionId: sid,
      sessionUnavailable: session.unavailable,
      mode: values.mode ?? null,
      noCleanup: values["no-cleanup"],
      afterCompact: values["after-compact"],
      askMode: values["ask-mode"],
      modeAsked: values.asked,
      transcriptPath: transcript,
      knobs: ctx.knobs,
      task: values.task ?? doc.task,
      intent: values.intent ?? doc.intent,
      inProgress: values["in-progress"] ?? doc.inProgress,
      blockers: [...values.blocker, ...(doc.blockers ?? [])],
      nextUp: [...nextUpFromFlags(values.next, values["next-blocked"]), ...(doc.nextUp ?? [])],
      completed: doc.completed ?? [],
      notes: [...values.note, ...(doc.notes ?? [])],
      done: doc.done,
      decisions: doc.decisions,
      openQuestions: doc.openQuestions,
    };
    let out: SaveOutcome;
    try {
      out = runSave(ctx.deps, request);
    } catch (err) {
      // A broken environment (read-only disk, no free name): still one JSON answer for the skill.
      if (!ctx.json) throw err;
      return refuse(ctx, `save failed: ${failureText(err)}`);
    }
    if (!out.ok && out.needsMode && values["ask-mode"] && sid && raw !== null)
      keepAskedDocument(ctx.deps, ctx.paths, sid, raw);
    if (out.ok && documentChars !== null && documentChars > DOCUMENT_BUDGET_CHARS)
      out.warnings.push(
        `[checkpoint] the document was ${documentChars} characters, over the ${DOCUMENT_BUDGET_CHARS} budget`,
      );
    // QUOIN_SHARE=auto: the checkpoint just written is shared too (recorded, then pushed).
    const shared =
      out.ok && out.checkpoint && autoShareOn(ctx.knobs)
        ? autoShare(ctx.deps, {
            file: out.checkpoint,
            root: ctx.root,
            launchCwd: ctx.cwd,
            push: true,
            retention: {
              nowMs: ctx.deps.now().getTime(),
              windowDays: ctx.knobs.QUOIN_CLEANUP_CKPT_WINDOW,
            },
          })
        : null;
    return print(ctx, out, shared, documentChars);
  },
});

function sharedLine(s: AutoShare): string {
  return s.ok
    ? `[checkpoint] shared ${s.path}${s.pushed ? ` (pushed to ${s.remote})` : ""} (QUOIN_SHARE=auto)`
    : `[checkpoint] QUOIN_SHARE=auto: ${s.reason}`;
}
