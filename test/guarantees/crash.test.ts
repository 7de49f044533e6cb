import { rmSync } from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../helpers/save-repo.ts";
import { FUZZ_SEED, runs } from "./fuzz-seed.ts";
import { runPool, type ProcJob } from "./proc-pool.ts";
import {
  checkState,
  KINDS,
  project,
  seedOldSessions,
  sessionIdFor,
  type KindRow,
  type Project,
} from "./workload.ts";

// Crash safety: SIGKILL at a random point of a save, a block-tier forced save, a PreCompact, a
// cleanup (and a SessionEnd: one more row in KINDS), 1,000 times, many at once, in one repository.
// The delay is drawn from the seed, within the run time of that kind measured first on this
// machine. Afterwards no file under a final name is partial, no sentinel names a missing
// checkpoint, every held prompt is whole and its own session's, and the next run of each succeeds.

const KILLS = runs(1_000);
const PARALLEL = 8;
const SESSIONS = 40;
const KILLED = KINDS.filter((k) =>
  ["save", "precompact", "prompt (block tier)", "cleanup", "sessionend"].includes(k.name),
);

let p: Project;
beforeAll(() => {
  ensureBuilt();
  p = project();
  seedOldSessions(p, 200);
});
afterAll(() => rmSync(path.dirname(p.repo.home), { recursive: true, force: true }));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

describe(`SIGKILL at random points, ${KILLS} times`, () => {
  it("no partial file under a final name, no sentinel naming a missing checkpoint, the next run succeeds", async () => {
    // How long each kind runs here, now: the kills land anywhere from the start to the end.
    const runMs = new Map<KindRow, number>();
    const sent = new Map<string, string[]>();
    for (const kind of KILLED) {
      const calibration = [0, 1, 2].map((n) => kind.job(p, sessionIdFor(900 + n), 0));
      if (kind.name.startsWith("prompt"))
        for (const [n, j] of calibration.entries())
          sent.set(sessionIdFor(900 + n), [JSON.parse(String(j.input)).prompt]);
      const timings = await runPool(calibration, 3);
      runMs.set(kind, Math.max(20, median(timings.map((t) => t.ms))));
    }

    const plan = fc.sample(
      fc.tuple(
        fc.nat(KILLED.length - 1),
        fc.nat(SESSIONS - 1),
        fc.double({ min: 0, max: 1.1, noNaN: true }),
      ),
      { seed: FUZZ_SEED, numRuns: KILLS },
    );
    const jobs: ProcJob[] = plan.map(([k, s, f], i) => {
      const kind = KILLED[k]!;
      const sid = sessionIdFor(s);
      const job = kind.job(p, sid, 1000 + i);
      if (kind.name.startsWith("prompt"))
        sent.set(sid, [...(sent.get(sid) ?? []), JSON.parse(String(job.input)).prompt]);
      return { ...job, killAfterMs: Math.round(f * runMs.get(kind)!) };
    });
    const started = Date.now();
    const results = await runPool(jobs, PARALLEL);
    const killed = results.filter((r) => r.signal === "SIGKILL").length;
    const finished = results.filter((r) => r.code === 0).length;
    const otherExits = results.filter((r) => r.signal !== "SIGKILL" && r.code !== 0);

    const afterKills = checkState(p, sent, { exactPrompts: false });

    // The next run of each command, unkilled, succeeds, and leaves the folder as sound.
    const nextJobs = KILLED.map((k) => k.job(p, sessionIdFor(0), 9999));
    KILLED.forEach((k, i) => {
      if (k.name.startsWith("prompt"))
        sent.set(sessionIdFor(0), [
          ...(sent.get(sessionIdFor(0)) ?? []),
          JSON.parse(String(nextJobs[i]!.input)).prompt,
        ]);
    });
    const next = await runPool(nextJobs, KILLED.length);
    const nextFailures = next.flatMap((r, i) =>
      r.code !== 0 || r.stdout.includes('"ok":false')
        ? [`${KILLED[i]!.name}: exit ${r.code} ${r.stdout.slice(0, 200)} ${r.stderr.slice(0, 200)}`]
        : [],
    );
    const afterNext = checkState(p, sent, { exactPrompts: false });

    console.log(
      `[crash] ${KILLS} runs with a SIGKILL after a random delay (${KILLED.map((k) => `${k.name} ~${runMs.get(k)!.toFixed(0)} ms`).join(", ")}), ${PARALLEL} at once, ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s: ${killed} killed mid-run, ${finished} finished first; afterwards ${afterKills.checkpoints} checkpoints, ` +
        `${afterKills.sentinels} sentinels, ${afterKills.prompts} pending-prompt files, ${afterKills.tempFiles} temp files of killed writers (never under a final name); seed ${FUZZ_SEED}`,
    );
    expect(otherExits.map((r) => `${r.code} ${r.stderr.slice(0, 200)}`)).toEqual([]);
    expect(afterKills.problems).toEqual([]);
    expect(nextFailures).toEqual([]);
    expect(afterNext.problems).toEqual([]);
    expect(killed).toBeGreaterThan(KILLS / 4);
  }, 3_600_000);
});
