import { runRestore } from "../../lib/restore/restore-run.ts";
import {
  refusedRestoreJson,
  restoreJson,
  restoreText,
} from "../../lib/restore/brief/restore-answer.ts";
import { sessionRunningCheck } from "../../lib/store/session-liveness.ts";
import { claudeConfigDir } from "../../lib/core/config-dir.ts";
import { rerunEngine } from "../rerun.ts";
import { sharedSource } from "../../lib/share/shared-for-restore.ts";
import { printJson, printLine, UsageError } from "../cli-context.ts";
import { EXIT, refuse } from "../answer.ts";
import { defineCommand } from "../command.ts";

export const restoreCommand = defineCommand({
  name: "restore",
  summary:
    "pick the checkpoint to resume, replay prompts held back before a save, tidy up the markers",
  options: {
    pick: { type: "string", hint: "N" },
    synthesize: { type: "boolean" },
    replay: { type: "string", hint: "all|N,M|none|'edit N'|delete" },
    proceed: { type: "boolean" },
    "decline-synthesis": { type: "boolean" },
    shared: { type: "string", hint: "sN" },
  },
  run(ctx, values) {
    const engine = rerunEngine(ctx);
    // With --json the answer is always one object, a refused answer included (as for --replay).
    const refused = (reason: string, expected?: string): number => {
      if (!ctx.json) throw new UsageError(`restore: ${reason}`, expected);
      const extra = refusedRestoreJson(reason, engine) as object;
      return refuse(ctx, { reason, expected }, { code: EXIT.usage, extra });
    };
    const rawPick = values.pick;
    if (rawPick !== undefined && (!/^\d+$/.test(rawPick.trim()) || Number(rawPick) < 1))
      return refused(
        `--pick ${JSON.stringify(rawPick)}: expected a number from the list, e.g. --pick 2`,
        "--pick N",
      );
    const session = ctx.session();
    // "" and "unknown" are what a harness passes when it has no id: Tier 1 (this session's own
    // pending-restore sentinel) is skipped, as the seed says.
    if (
      !session.ok &&
      ctx.sessionFlag !== undefined &&
      ctx.sessionFlag !== "" &&
      ctx.sessionFlag !== "unknown"
    )
      return refused(session.reason);
    if (!session.ok)
      ctx.deps.warn(`[checkpoint] ${session.reason}; the current-session fast path is skipped`);
    const outcome = runRestore(ctx.deps, ctx.knobs, {
      paths: ctx.paths,
      sessionId: session.ok ? session.id : "",
      sessionGuessed: ctx.sessionGuessed,
      pick: rawPick === undefined ? undefined : Number(rawPick),
      synthesize: values.synthesize,
      replay: values.replay,
      proceed: values.proceed,
      declineSynthesis: values["decline-synthesis"],
      shared: values.shared,
      sharedSource: sharedSource(ctx.deps, ctx.paths),
      running: sessionRunningCheck(ctx.deps, claudeConfigDir(ctx.deps.env, ctx.deps.home)),
    });
    // a shared checkpoint that could not be adopted is refused as a wrong argument is
    if (outcome.action === "invalid" && outcome.expected !== undefined)
      return refused(outcome.reason, outcome.expected);
    if (ctx.json) printJson(ctx, restoreJson(outcome, engine));
    else printLine(ctx, restoreText(outcome, engine));
    // choose, synthesize and none are answers too (the skill asks, or says so): exit 0
    return outcome.action === "invalid" ? EXIT.usage : EXIT.done;
  },
});
