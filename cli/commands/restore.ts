import { findMidAgentHandoff, handoffLine } from "../../lib/store/mid-agent-handoff.ts";
import { runRestore } from "../../lib/restore/restore-run.ts";
import { restoreJson, restoreText } from "../../lib/restore/restore-render.ts";
import { markRunningSessions } from "../../lib/restore/running-sessions.ts";
import { sessionRunningCheck } from "../../lib/store/session-liveness.ts";
import { claudeConfigDir } from "../../lib/core/config-dir.ts";
import { rerunEngine } from "../rerun.ts";
import { printJson, printLine, UsageError } from "../cli-context.ts";
import { EXIT, refuse } from "../answer.ts";
import { defineCommand } from "../command.ts";
import { adoptForRestore, sharedForPicker, sharedHint, sharedPickAlias } from "./shared-hook.ts";

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
    // With --json the answer is always one object, a refused answer included (as for --replay).
    const refused = (reason: string, expected?: string): number => {
      if (!ctx.json) throw new UsageError(`restore: ${reason}`, expected);
      const extra = restoreJson({ action: "invalid", reason }, rerunEngine(ctx));
      return refuse(ctx, { reason, expected }, { code: EXIT.usage, extra: extra as object });
    };
    const rawPick = values.pick;
    let pick: number | undefined;
    if (rawPick !== undefined) {
      if (!/^\d+$/.test(rawPick.trim()) || Number(rawPick) < 1)
        return refused(
          `--pick ${JSON.stringify(rawPick)}: expected a number from the list, e.g. --pick 2`,
          "--pick N",
        );
      pick = Number(rawPick);
    }
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
    // A number past the local candidates picks the shared checkpoint the menu numbered so.
    let sharedArg = values.shared;
    if (sharedArg === undefined && pick !== undefined) {
      sharedArg = sharedPickAlias(ctx, pick, session.ok ? session.id : "") ?? undefined;
      if (sharedArg !== undefined) pick = undefined;
    }
    const adopted =
      sharedArg === undefined
        ? null
        : adoptForRestore(ctx, sharedArg, session.ok ? session.id : null);
    if (adopted && !adopted.ok) return refused(adopted.reason, adopted.expected);
    const config = claudeConfigDir(ctx.deps.env, ctx.deps.home);
    const outcome = markRunningSessions(
      runRestore(ctx.deps, ctx.knobs, {
        paths: ctx.paths,
        sessionId: session.ok ? session.id : "",
        sessionGuessed: ctx.sessionGuessed,
        pick,
        synthesize: values.synthesize,
        replay: values.replay,
        // a picked shared checkpoint is named by this session's own sentinel: no same-session question
        proceed: values.proceed || adopted !== null,
        declineSynthesis: values["decline-synthesis"],
      }),
      session.ok ? session.id : "",
      sessionRunningCheck(ctx.deps, config),
    );
    const sid = session.ok ? session.id : "";
    const handoff = findMidAgentHandoff(
      ctx.deps.fs,
      ctx.paths.memory,
      sid,
      ctx.deps.now().getTime(),
      ctx.knobs.QUOIN_RESTORE_SENTINEL_WINDOW,
    );
    const hint = sharedHint(ctx, outcome.action);
    const offered = sharedForPicker(ctx, outcome.action);
    if (ctx.json)
      printJson(
        ctx,
        // ok false only for an invalid answer (--pick out of range, a bad --replay): exit 2; it
        // goes in with the other fields so the 8 KB fit counts it
        restoreJson(
          outcome,
          rerunEngine(ctx),
          {
            ok: outcome.action !== "invalid",
            midAgentHandoff: handoff,
            ...(hint ? { sharedHint: hint } : {}),
            ...(adopted?.ok ? { adoptedShared: adopted.file } : {}),
          },
          offered,
        ) as object,
      );
    else
      printLine(
        ctx,
        [
          restoreText(outcome, rerunEngine(ctx), offered),
          ...(handoff ? [handoffLine(handoff)] : []),
          ...(hint ? [hint] : []),
        ].join("\n"),
      );
    // choose, synthesize and none are answers too (the skill asks, or says so): exit 0
    return outcome.action === "invalid" ? EXIT.usage : EXIT.done;
  },
});
