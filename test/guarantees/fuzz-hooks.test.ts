import { hookLogPath } from "../../lib/hooks/hook-log.ts";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { projectMemory } from "../../lib/store/project-root.ts";
import {
  allowedPrefixes,
  breakage,
  buildWorld,
  changedPaths,
  HOME,
  PROJECT,
  payloadArb,
  worldArb,
} from "./fuzz-world.ts";
import { count, params, report } from "./fuzz-seed.ts";
import { answerProblem, HOOKS, inProcessAnswer, missingRows } from "./tables.ts";

// Fuzzing, in-process: every hook's whole pipeline (parse, validate, handle, answer, the
// fail-open log) on a memfs world built for each case, fed payloads with hostile field values,
// broken bytes and strangers' fields. Invariants: what it prints is empty or one JSON object of
// the event's documented shape, and it writes only under <project>/.workflow_artifacts/ and
// <config>/quoin-checkpoint/ ($HOME and / are no project: nothing there).

const CASES_PER_HOOK = 4_000;

afterAll(() => console.log(report("test/guarantees/fuzz-hooks.test.ts")));

describe("every registered hook bundle has a row in the suites' table", () => {
  it("HOOK_SPECS and HOOKS agree", () => expect(missingRows()).toEqual([]));
});

const failures = new Map<string, number>();

describe.each(HOOKS)("$event hook, in-process on memfs", (row) => {
  it(`${CASES_PER_HOOK} generated payloads: one documented answer or none, writes only where allowed`, () => {
    fc.assert(
      fc.property(worldArb, payloadArb(row.event, row.extra), breakage, (w, p, broken) => {
        const sid =
          typeof p.fields["session_id"] === "string" ? (p.fields["session_id"] as string) : "";
        const { deps, transcriptPath } = buildWorld({ ...w, sid }, p.hostile);
        const fields = { ...p.fields };
        if (transcriptPath !== undefined && fields["transcript_path"] === undefined)
          fields["transcript_path"] = transcriptPath;
        const raw = broken(JSON.stringify(fields));
        const before = deps.vol.toJSON();
        const out = inProcessAnswer(row, deps, raw);
        const problem = answerProblem(row, out);
        if (problem) throw new Error(`${problem}\nstdout: ${out.slice(0, 300)}`);
        const cwd = typeof fields["cwd"] === "string" ? (fields["cwd"] as string) : PROJECT;
        // The payload's project, or (input refused before its cwd was read) the hook process's own.
        // Outside a project ($HOME, /) the root is taken as $HOME: nothing there is allowed.
        const root = projectMemory({ fs: deps.fs, home: HOME }, cwd)?.root ?? HOME;
        const allowed = [
          ...allowedPrefixes(root, HOME),
          ...allowedPrefixes(
            projectMemory({ fs: deps.fs, home: HOME }, PROJECT)?.root ?? HOME,
            HOME,
          ),
        ];
        const stray = changedPaths(before, deps.vol.toJSON()).filter(
          (f) => !allowed.some((a) => f.startsWith(a)),
        );
        if (stray.length)
          throw new Error(`wrote outside ${allowed.join(" and ")}: ${stray.join(", ")}`);
        const log = deps.vol.toJSON()[hookLogPath(deps)];
        if (typeof log === "string") {
          const last = log.trimEnd().split("\n").pop() ?? "";
          const kind = last
            .replace(/^\S+ /, "")
            .replace(/["(].*$/, "")
            .slice(0, 70);
          failures.set(kind, (failures.get(kind) ?? 0) + 1);
        }
      }),
      params(CASES_PER_HOOK),
    );
    count(`${row.event} hook`, params(CASES_PER_HOOK).numRuns ?? 0);
  }, 180_000);
});

afterAll(() => {
  // What the fail-open path logged, by kind: a person can see which inputs were refused and why.
  const lines = [...failures.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => `  ${n}  ${k}`);
  if (lines.length)
    console.log(`[fuzz] fail-open log lines by kind:\n${lines.slice(0, 25).join("\n")}`);
});
