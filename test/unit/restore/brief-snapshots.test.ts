import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { restoreJson, restoreText } from "../../../lib/restore/brief/restore-answer.ts";
import { runRestore } from "../../../lib/restore/restore-run.ts";
import { chooseBanner } from "../../../lib/hooks/restore-banner.ts";
import { MemoryFixture } from "../../helpers/memory-fixture.ts";

// The brief and the banner, each seen whole, rendered from a real checkpoint: quoin's forced
// save (test/fixtures/quoin), placed in this project's checkpoints folder with this session's
// pending-restore naming it.

const ENGINE = 'node "/e/quoin-checkpoint.cjs"';
const CUR = "cccc0000-0000-0000-0000-000000000001";
const FIXTURE = path.resolve(
  import.meta.dirname,
  "../../fixtures/quoin/project/.workflow_artifacts/memory/checkpoints/2026-11-29T0912-30414-payment-refactor-blocksave.md",
);

function fixtureWorld(text = fs.readFileSync(FIXTURE, "utf8")): MemoryFixture {
  const f = new MemoryFixture();
  const file = f.checkpoint(path.basename(FIXTURE), {
    task: "payment-refactor",
    raw: text,
    ageDays: 0.02,
  });
  f.sentinel(CUR, file, 0.02);
  return f;
}

describe("the restore brief, whole, on quoin's forced save", () => {
  it("the text a person reads", () => {
    const f = fixtureWorld();
    const o = runRestore(f.deps(), f.knobs(), { paths: f.paths, sessionId: CUR });
    expect(restoreText(o, ENGINE)).toMatchInlineSnapshot(`
      "Checkpoint kind: automatic (forced save): no notes of the model; the last words and commits are the record.
      Resuming task: payment-refactor. Branch: feature/payments. Last intent: (none recorded).
      Session: claude --resume 7f3e9a10-5b2c-4d8e-9f01-23456789abcd
      From: /home/dev/proj/.workflow_artifacts/memory/checkpoints/2026-11-29T0912-30414-payment-refactor-blocksave.md (saved 2026-11-29T09:12:41Z); read it for more than this brief.
      In-flight artifacts: 1 paths (re-read them now):
        /repo/.workflow_artifacts/memory/sessions/2026-11-29-payment-refactor.md
      git: not a repository here; commits not checked
      [checkpoint] moved to trash: /home/dev/proj/.workflow_artifacts/memory/pending-restore-cccc0000-0000-0000-0000-000000000001.txt"
    `);
  });

  it("the JSON's show and next, what the model reads", () => {
    const f = fixtureWorld();
    const o = runRestore(f.deps(), f.knobs(), { paths: f.paths, sessionId: CUR });
    const j = restoreJson(o, ENGINE) as { show: string[]; next: string[] };
    expect({ show: j.show, next: j.next }).toMatchInlineSnapshot(`
      {
        "next": [
          "Read each file in \`reread\` now (1).",
          "Ask the user what to do next: AskUserQuestion "What next?": "Carry on where the session stopped" / "Read the whole checkpoint file first" / "Something else".",
        ],
        "show": [
          "Checkpoint kind: automatic (forced save): no notes of the model; the last words and commits are the record.",
          "Resuming task: payment-refactor. Branch: feature/payments. Last intent: (none recorded).",
          "Session: claude --resume 7f3e9a10-5b2c-4d8e-9f01-23456789abcd",
          "From: /home/dev/proj/.workflow_artifacts/memory/checkpoints/2026-11-29T0912-30414-payment-refactor-blocksave.md (saved 2026-11-29T09:12:41Z); read it for more than this brief.",
          "In-flight artifacts: 1 paths (re-read them now):",
          "  /repo/.workflow_artifacts/memory/sessions/2026-11-29-payment-refactor.md",
          "git: not a repository here; commits not checked",
          "[checkpoint] moved to trash: /home/dev/proj/.workflow_artifacts/memory/pending-restore-cccc0000-0000-0000-0000-000000000001.txt",
        ],
      }
    `);
  });

  it("the same checkpoint cut to its first 150 bytes", () => {
    const f = fixtureWorld(fs.readFileSync(FIXTURE, "utf8").slice(0, 150));
    const o = runRestore(f.deps(), f.knobs(), { paths: f.paths, sessionId: CUR });
    expect(restoreText(o, ENGINE)).toMatchInlineSnapshot(`
      "[checkpoint] /home/dev/proj/.workflow_artifacts/memory/checkpoints/2026-11-29T0912-30414-payment-refactor-blocksave.md is damaged: cut short; nothing was restored and its sentinel is kept.
      ----- its first 2 KB (non-printing bytes as ?) -----
      ## Status
      block-hook forced save (context overflow)

      ## Current stage
      (unknown - forced save)

      ## Active task
      payment-refactor

      ## Branch
      feature/paym
      -----------------------
      Manual recovery: please paste the checkpoint content above and I will reconstruct state."
    `);
  });
});

describe("the SessionStart banner, whole, on quoin's forced save", () => {
  it("names it for this session", () => {
    const f = fixtureWorld();
    expect(chooseBanner(f.deps(), f.paths, CUR)?.text).toMatchInlineSnapshot(
      `"[quoin-checkpoint] A checkpoint for this session is waiting: /home/dev/proj/.workflow_artifacts/memory/checkpoints/2026-11-29T0912-30414-payment-refactor-blocksave.md (task 'payment-refactor'). Run /checkpoint --restore to resume from it."`,
    );
  });

  it("names it damaged when it was cut short", () => {
    const f = fixtureWorld(fs.readFileSync(FIXTURE, "utf8").slice(0, 150));
    expect(chooseBanner(f.deps(), f.paths, CUR)?.text).toMatchInlineSnapshot(
      `"[quoin-checkpoint] The checkpoint waiting for this session, /home/dev/proj/.workflow_artifacts/memory/checkpoints/2026-11-29T0912-30414-payment-refactor-blocksave.md, is damaged: cut short. Nothing will be restored from it by itself; /checkpoint --restore shows its text and lists the other checkpoints."`,
    );
  });
});
