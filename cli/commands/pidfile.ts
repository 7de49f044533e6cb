import { acquirePidfile, activePidfiles, skillWithPid } from "../../lib/store/pidfile.ts";
import { releasePidfile } from "../../lib/store/pidfile-release.ts";
import { readProcessInfo, sessionProcessPid } from "../../lib/store/session-liveness.ts";
import { printLine, UsageError } from "../cli-context.ts";
import { answer, EXIT, refuse } from "../answer.ts";
import { defineCommand } from "../command.ts";

// The seed's section 0c: a skill marks itself active at entry and releases at every exit, so the
// precompact hook and a mid-agent save know which skills are in flight. Fail open: a pidfile
// problem is one warning line, never a failed skill (exit 0).
export const pidfileCommand = defineCommand({
  name: "pidfile",
  summary: "mark a skill active in this session (acquire, release, active)",
  args: "acquire|release <skill> | active [<skill-to-exclude>]",
  options: { pid: { type: "string", hint: "N" } },
  alwaysExitZero: true,
  run(ctx, values, positionals) {
    const [action, skill] = positionals;
    if (action === "active") {
      const mine = ctx.session();
      const live = activePidfiles(ctx.deps, ctx.paths.sessions).filter(
        (p) => !(skill && p.skill === skill && mine.ok && p.session === mine.id),
      );
      if (ctx.json)
        return answer(ctx, {
          active: live.map(({ skill: s, session, pid, acquired_at }) => ({
            skill: s,
            session,
            pid,
            acquired_at,
          })),
        });
      else
        for (const p of live)
          printLine(ctx, `${p.skill} ${p.pid} ${p.session || "-"} ${p.acquired_at}`);
      return EXIT.done;
    }
    if ((action !== "acquire" && action !== "release") || !skill)
      throw new UsageError(`usage: quoin-checkpoint ${pidfileCommand.usage}`, pidfileCommand.usage);
    const sid = ctx.session();
    const fail = (reason: string) =>
      refuse(
        ctx,
        { reason },
        {
          code: EXIT.done,
          text: `[quoin-S-2: pidfile helpers unavailable (${reason}); proceeding without lifecycle protection]`,
          textTo: "stdout",
        },
      );
    if (!sid.ok) return fail(sid.reason);
    try {
      if (action === "acquire") {
        const explicit = values.pid !== undefined ? Number(values.pid) : NaN;
        const pid =
          Number.isInteger(explicit) && explicit > 0
            ? explicit
            : sessionProcessPid((p) => readProcessInfo(ctx.deps, p), ctx.deps.pid, ctx.deps.ppid);
        const file = acquirePidfile(ctx.deps, ctx.paths.sessions, skill, sid.id, pid);
        if (ctx.json) return answer(ctx, { pidfile: file, pid });
        printLine(ctx, `[checkpoint] ${skillWithPid({ skill, pid })} active: ${file}`);
        return EXIT.done;
      }
      const moved = releasePidfile(ctx.deps, ctx.paths, skill, sid.id);
      if (ctx.json) return answer(ctx, { released: moved !== null, trash: moved });
      // A release after the engine already released (save and restore do it at their end) says nothing.
      if (moved) printLine(ctx, `[checkpoint] ${skill} released`);
      return EXIT.done;
    } catch (err) {
      return fail((err as Error).message);
    }
  },
});
