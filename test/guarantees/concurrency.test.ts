import { readdirSync, rmSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../helpers/save-repo.ts";
import { runPool } from "./proc-pool.ts";
import {
  checkState,
  KINDS,
  project,
  promptFor,
  seedOldSessions,
  sessionIdFor,
  type Project,
} from "./workload.ts";

// Many sessions of one project at once: 64 processes, one per session, all in one repository: saves,
// PreCompacts, block-tier prompts, SessionStarts after compaction, restores and cleanups (a
// SessionEnd is one more row in KINDS). Two waves, so every block-tier session holds two prompts.
// Afterwards every checkpoint parses whole, every sentinel names an existing checkpoint of its own
// session, every blocked prompt is there exactly once and unmixed, and no file holds two sessions.

const SESSIONS = 64;
const WAVES = 2;

let p: Project;
// The set-up (a repository, 16 old sessions) took over vitest's 10 s under load.
beforeAll(() => {
  ensureBuilt();
  p = project();
  seedOldSessions(p, 16);
}, 120_000);
afterAll(() => {
  if (process.env["QUOIN_KEEP"]) console.log(`[concurrency] kept ${p.repo.root}`);
  else rmSync(path.dirname(p.repo.home), { recursive: true, force: true });
});

describe(`${SESSIONS} sessions at once in one repository`, () => {
  it(`${WAVES} waves of ${SESSIONS} processes: every file whole, its own session's, nothing lost or mixed`, async () => {
    const sent = new Map<string, string[]>();
    const failures: string[] = [];
    let processes = 0;
    for (let wave = 1; wave <= WAVES; wave += 1) {
      const rows = Array.from({ length: SESSIONS }, (_, i) => ({
        sid: sessionIdFor(i),
        kind: KINDS[i % KINDS.length]!,
      }));
      for (const r of rows)
        if (r.kind.name.startsWith("prompt"))
          sent.set(r.sid, [...(sent.get(r.sid) ?? []), promptFor(r.sid, wave)]);
      const results = await runPool(
        rows.map((r) => r.kind.job(p, r.sid, wave)),
        SESSIONS,
      );
      processes += results.length;
      results.forEach((res, i) => {
        if (res.code !== 0 || res.hung)
          failures.push(
            `wave ${wave} ${rows[i]!.kind.name} ${rows[i]!.sid}: exit ${res.code} ${res.stderr.slice(0, 300)}`,
          );
        if (res.stdout.includes('"ok":false'))
          failures.push(`wave ${wave} ${rows[i]!.kind.name}: ${res.stdout.slice(0, 300)}`);
      });
    }
    const state = checkState(p, sent, { exactPrompts: true });
    // Each saving session has at least one checkpoint of its own.
    const savers = Array.from({ length: SESSIONS }, (_, i) => i).filter(
      (i) => KINDS[i % KINDS.length]!.saves,
    );
    console.log(
      `[concurrency] ${processes} processes (${WAVES} waves of ${SESSIONS} at once, kinds: ${KINDS.map((k) => k.name).join(", ")}): ` +
        `${state.checkpoints} checkpoints, ${state.sentinels} pending-restore sentinels, ${state.prompts} pending-prompt files, ${state.tempFiles} temp files left; ${savers.length} saving sessions`,
    );
    expect(failures).toEqual([]);
    expect(state.problems).toEqual([]);
    // A temp file left is a write cut short (writeAtomic's .<name>.<pid>.<n>.tmp): named here.
    const ckDir = path.join(p.memory, "checkpoints");
    const temps = [p.memory, ckDir].flatMap((dir) =>
      readdirSync(dir)
        .filter((n) => n.endsWith(".tmp"))
        .map((n) => path.relative(p.memory, path.join(dir, n))),
    );
    expect(temps).toEqual([]);
    expect(state.tempFiles).toBe(0);
  }, 1_800_000);
});
