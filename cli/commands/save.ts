import { formatBps } from "../../lib/context/context-window.ts";
import { nextUpFromFlags, parseSaveDocument, type SaveDocument } from "../../lib/save/save-document.ts";
import { SAVE_MODES, type SaveMode } from "../../lib/save/save-sentinel.ts";
import { runSave, type SaveOutcome, type SaveRequest } from "../../lib/save/save.ts";
import { transcriptPathFor } from "../../lib/store/session-id-resolve.ts";
import { printJson, printLine, UsageError, type CliContext } from "../cli-context.ts";
import type { Command, ParsedValues } from "../command.ts";
import { sessionForWrite } from "../session-for-write.ts";

const str = (v: ParsedValues[string]) => (typeof v === "string" ? v : undefined);
const list = (v: ParsedValues[string]) => (Array.isArray(v) ? v : typeof v === "string" ? [v] : []);

function refuse(ctx: CliContext, reason: string, extra: Record<string, unknown> = {}): number {
  if (ctx.json) printJson(ctx, { ok: false, reason, ...extra });
  else ctx.deps.warn(`[checkpoint] ${reason}`);
  return 1;
}

function print(ctx: CliContext, out: SaveOutcome): number {
  if (!out.ok) {
    // The question the skill asks, worded here so the SKILL.md stays small.
    const ask = `AskUserQuestion "Active skills detected: ${(out.activeSkills ?? []).join(", ")}. Save in mid-agent mode (minimal sentinel only)?": "Yes, save mid-agent" (--mode mid-agent) / "Choose different mode" (--mode restore)`;
    return refuse(ctx, out.reason, out.needsMode ? { needsMode: true, activeSkills: out.activeSkills, ask } : {});
  }
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
      utilization: u ? { tokens: u.tokens, limit: u.limit, window: u.window, bps: u.bps, percent: formatBps(u.bps) } : null,
      cleanup: out.cleanup ? { sentinels: out.cleanup.sentinels.length, checkpoints: out.cleanup.checkpoints.length } : null,
      cleanupLine: out.cleanupLine,
      ledger: out.ledger,
      bytes: out.bytes,
      report: out.report,
    });
    return 0;
  }
  for (const w of out.warnings) ctx.deps.warn(w);
  for (const line of out.report) printLine(ctx, line);
  return 0;
}

export const saveCommand: Command = {
  name: "save",
  summary: "save this session's place: checkpoint file, sentinel for the mode, ledger row",
  usage:
    "save [--mode restore|load-as-reference|mid-agent] [--no-cleanup] [--after-compact] [--task NAME] [--intent TEXT] [--note TEXT]... " +
    "[--in-progress TEXT] [--next ITEM]... [--next-blocked ITEM]... [--blocker TEXT]... [--stdin-json] [--transcript PATH] [--session ID] [--cwd DIR] [--json]",
  options: {
    mode: { type: "string" },
    "no-cleanup": { type: "boolean", default: false },
    "after-compact": { type: "boolean", default: false },
    task: { type: "string" },
    intent: { type: "string" },
    note: { type: "string", multiple: true },
    "in-progress": { type: "string" },
    next: { type: "string", multiple: true },
    "next-blocked": { type: "string", multiple: true },
    blocker: { type: "string", multiple: true },
    "stdin-json": { type: "boolean", default: false },
    transcript: { type: "string" },
  },
  run(ctx, values) {
    const modeFlag = str(values["mode"]);
    if (modeFlag !== undefined && !SAVE_MODES.includes(modeFlag as SaveMode)) {
      throw new UsageError(`save: --mode ${JSON.stringify(modeFlag)} is not valid; expected one of: ${SAVE_MODES.join(", ")}`);
    }
    const session = sessionForWrite(ctx);
    if (!session.ok) return refuse(ctx, `${session.reason}; nothing written`);

    let doc: SaveDocument = {};
    if (values["stdin-json"]) {
      const parsed = parseSaveDocument(ctx.readStdin());
      if (!parsed.ok) return refuse(ctx, `${parsed.reason}; nothing written`);
      doc = parsed.value;
    }
    const sid = session.id;
    const transcript = str(values["transcript"]) ?? (sid ? transcriptPathFor(ctx.deps, ctx.cwd, sid) : null);
    const request: SaveRequest = {
      paths: ctx.paths,
      launchCwd: ctx.cwd,
      sessionId: sid,
      sessionUnavailable: session.unavailable,
      mode: (modeFlag as SaveMode | undefined) ?? null,
      noCleanup: Boolean(values["no-cleanup"]),
      afterCompact: Boolean(values["after-compact"]),
      transcriptPath: transcript,
      knobs: ctx.knobs,
      task: str(values["task"]) ?? doc.task,
      intent: str(values["intent"]) ?? doc.intent,
      inProgress: str(values["in-progress"]) ?? doc.inProgress,
      blockers: [...list(values["blocker"]), ...(doc.blockers ?? [])],
      nextUp: [...nextUpFromFlags(list(values["next"]), list(values["next-blocked"])), ...(doc.nextUp ?? [])],
      completed: doc.completed ?? [],
      notes: [...list(values["note"]), ...(doc.notes ?? [])],
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
      return refuse(ctx, `save failed: ${(err as Error).message}`);
    }
    return print(ctx, out);
  },
};
