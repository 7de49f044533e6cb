import { acquirePidfile, activePidfiles, skillWithPid } from "../../lib/store/pidfile.ts";
import { releasePidfile } from "../../lib/store/pidfile-release.ts";
import { readProcessInfo, sessionProcessPid } from "../../lib/store/session-liveness.ts";
import { printJson, printLine, UsageError } from "../cli-context.ts";
import { defineCommand } from "../command.ts";

// The seed's section 0c: a skill marks itself active at entry and releases at every exit, so the
// precompact hook and a mid-agent save know which skills are in flight. Fail open: a pidfile
// problem is one warning line, never a failed skill (exit 0).
export const pidfileCommand = defineCommand({
  name: "pidfile",
  summary: "mark a skill active in this session (acquire, release, active)",
  args: "acquire|release <skill> | active [<skill-to-exclude>]",
  options: { pid: { type: "string", hint: "N" } },
  run(ctx, values, positionals) {
    const [action, skill] = positionals;
    if (action === "active") {
      const mine = ctx.session();
      const live = activePidfiles(ctx.deps, ctx.paths.sessions).filter(
        (p) => !(skill && p.skill === skill && mine.ok && p.session === mine.id),
      );
      if (ctx.json)
        printJson(ctx, {
          ok: true,
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
      return 0;
    }
    if ((action !== "acquire" && action !== "release") || !skill)
      throw new UsageError(`usage: quoin-checkpoint ${pidfileCommand.usage}`);
    const sid = ctx.session();
    const fail = (reason: string) => {
      const line = `[quoin-S-2: pidfile helpers unavailable (${reason}); proceeding without lifecycle protection]`;
      if (ctx.json) printJson(ctx, { ok: false, reason });
      else printLine(ctx, line);
      return 0;
    };
    if (!sid.ok) return fail(sid.reason);
    try {
      if (action === "acquire") {
        const explicit = values.pid !== undefined ? Number(values.pid) : NaN;
        const pid =
          Number.isInteger(explicit) && explicit > 0
            ? explicit
            : sessionProcessPid((p) => readProcessInfo(ctx.deps, p), ctx.deps.pid, ctx.deps.ppid);
        const file = acquirePidfile(ctx.deps, ctx.paths.sessions, skill, sid.id, pid);
        if (ctx.json) printJson(ctx, { ok: true, pidfile: file, pid });
        else printLine(ctx, `[quoin] ${skillWithPid({ skill, pid })} active: ${file}`);
        return 0;
      }
      const moved = releasePidfile(ctx.deps, ctx.paths, skill, sid.id);
      if (ctx.json) printJson(ctx, { ok: true, released: moved !== null, trash: moved });
      // A release after the engine already released (save and restore do it at their end) says nothing.
      else if (moved) printLine(ctx, `[quoin] ${skill} released`);
      return 0;
    } catch (err) {
      return fail((err as Error).message);
    }
  },
});
