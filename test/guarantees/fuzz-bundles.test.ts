import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import * as fsNode from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FsApi } from "../../lib/core/deps.ts";
import { projectMemory } from "../../lib/store/project-root.ts";
import { FIXTURES, isPromptCodeCache } from "../helpers/run-bundle.ts";
import { ensureBuilt } from "../helpers/save-repo.ts";
import { FUZZ_SEED, runs } from "./fuzz-seed.ts";
import {
  breakage,
  envArb,
  HOME,
  OTHER,
  payloadArb,
  PROJECT,
  transcriptKind,
  usageLine,
  type TranscriptKind,
} from "./fuzz-world.ts";
import {
  changedFiles,
  runPool,
  sandbox,
  snapshotTree,
  type ProcJob,
  type Sandbox,
} from "./proc-pool.ts";
import { answerProblem, bundleFile, HOOKS } from "./tables.ts";

// Fuzzing, as processes: the built hook bundles, started as Claude Code starts them
// (node <bundle>, the payload on stdin), with generated payloads: hostile field values, broken
// bytes, random bytes. Each must exit 0 by itself, print nothing or one JSON object of its
// documented shape, and write only under <project>/.workflow_artifacts/ and <config>/quoin-checkpoint/.
// The cases come from the seed: QUOIN_FUZZ_SEED=<seed> gives the same list again.

const PROCESSES = runs(2_000);
const PARALLEL = 8;

let sb: Sandbox;
beforeAll(() => {
  ensureBuilt();
  sb = sandbox("fuzzp");
});
afterAll(() => sb?.cleanup());
// NOTE: about a minute on an idle 2-core machine; a machine loaded ten times over needs ten times that.

const caseArb = fc.integer({ min: 0, max: HOOKS.length - 1 }).chain((i) =>
  fc.record({
    hook: fc.constant(i),
    payload: payloadArb(HOOKS[i]!.event, HOOKS[i]!.extra),
    broken: breakage,
    transcript: transcriptKind,
    env: envArb,
  }),
);

/** The payload's memfs-world paths, moved into the sandbox; anything that would leave it stays inside. */
function place(cwd: unknown): unknown {
  if (typeof cwd !== "string") return cwd;
  let p = cwd;
  if (p === PROJECT || p.startsWith(`${PROJECT}/`)) p = sb.project + p.slice(PROJECT.length);
  else if (p === HOME) p = sb.home;
  else if (p === OTHER) p = sb.loose;
  const resolved = path.resolve(sb.project, p);
  return resolved === sb.base || resolved.startsWith(`${sb.base}/`)
    ? p
    : path.join(sb.base, "outside", resolved);
}

function transcriptPath(kind: TranscriptKind, hostile: string): string | undefined {
  const dir = path.join(sb.config, "projects", "-proj");
  switch (kind) {
    case "real":
      return path.join(dir, "real.jsonl");
    case "high":
      return path.join(dir, "high.jsonl");
    case "block":
      return path.join(dir, "block.jsonl");
    case "garbage":
      return path.join(dir, "garbage.jsonl");
    case "missing":
      return path.join(dir, "missing.jsonl");
    case "dir":
      return dir;
    case "etc":
      return "/etc/passwd";
    case "hostile":
      return hostile;
    case "none":
      return undefined;
  }
}

describe("hook bundles as processes, generated payloads", () => {
  it(`${PROCESSES} runs: exit 0 by themselves, one documented answer or none, writes only where allowed`, async () => {
    const dir = path.join(sb.config, "projects", "-proj");
    mkdirSync(dir, { recursive: true });
    copyFileSync(path.join(FIXTURES, "spotter-short.jsonl"), path.join(dir, "real.jsonl"));
    writeFileSync(path.join(dir, "high.jsonl"), `${usageLine(150_000)}\n`);
    writeFileSync(path.join(dir, "block.jsonl"), `${usageLine(170_000)}\n`);
    writeFileSync(
      path.join(dir, "garbage.jsonl"),
      '{"type":"assistant","message":{"usage":{"input_tokens":"x"}}}\n{"trunc',
    );

    const cases = fc.sample(caseArb, { seed: FUZZ_SEED, numRuns: PROCESSES });
    const roots = new Set<string>();
    const jobs: ProcJob[] = cases.map((c) => {
      const fields = { ...c.payload.fields };
      if ("cwd" in fields) fields["cwd"] = place(fields["cwd"]);
      const t = transcriptPath(c.transcript, c.payload.hostile);
      if (t !== undefined && fields["transcript_path"] === undefined) fields["transcript_path"] = t;
      const cwd = typeof fields["cwd"] === "string" ? (fields["cwd"] as string) : sb.project;
      try {
        const project = projectMemory(
          { fs: fsNode as unknown as FsApi, home: sb.home, uid: process.getuid?.() },
          cwd.includes("\0") ? sb.project : path.resolve(sb.project, cwd),
        );
        if (project) roots.add(project.root);
      } catch {
        // a cwd node cannot even resolve: the hook cannot write there either
      }
      return {
        file: bundleFile(HOOKS[c.hook]!.bundle),
        input: c.broken(JSON.stringify(fields)),
        env: { ...sb.env, ...noNul(c.env) },
        cwd: sb.project,
      };
    });
    roots.add(sb.project);

    const before = snapshotTree(sb.base);
    const started = Date.now();
    const results = await runPool(jobs, PARALLEL);
    const wallS = (Date.now() - started) / 1000;

    const bad = results.flatMap((r, i) => {
      const row = HOOKS[cases[i]!.hook]!;
      const problem = r.hung
        ? "hung (killed after 120 s)"
        : r.code !== 0
          ? `exit ${r.code} ${r.signal ?? ""} ${r.stderr.slice(0, 200)}`
          : answerProblem(row, r.stdout);
      return problem
        ? [`case ${i} (${row.event}): ${problem}\n  stdin: ${String(jobs[i]!.input).slice(0, 300)}`]
        : [];
    });
    const allowed = [
      ...[...roots]
        .filter((r) => r !== sb.home && r !== "/")
        .map((r) => `${r}/.workflow_artifacts/`),
      `${sb.config}/quoin-checkpoint/`,
    ];
    const stray = changedFiles(before, snapshotTree(sb.base)).filter(
      (f) => !allowed.some((a) => f.startsWith(a)) && !isPromptCodeCache(f, sb.home),
    );

    const byHook = HOOKS.map(
      (h, k) => `${h.event} ${cases.filter((c) => c.hook === k).length}`,
    ).join(", ");
    const cpuMs = results.reduce((a, r) => a + r.ms, 0);
    console.log(
      `[fuzz] processes: ${PROCESSES} runs of the built hook bundles (${byHook}), ${PARALLEL} at once, ${wallS.toFixed(1)} s wall, median ${median(results.map((r) => r.ms)).toFixed(0)} ms each (sum ${(cpuMs / 1000).toFixed(0)} s); seed ${FUZZ_SEED}; replay: QUOIN_FUZZ_SEED=${FUZZ_SEED} npx vitest run test/guarantees/fuzz-bundles.test.ts`,
    );
    expect(bad.slice(0, 5)).toEqual([]);
    expect(stray).toEqual([]);
  }, 3_600_000);
});

/** An environment cannot carry NUL bytes (execve refuses them). */
function noNul(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replace(/\0/g, "")]));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}
