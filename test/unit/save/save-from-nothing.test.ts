import { describe, expect, it } from "vitest";
import { runSave } from "../../../lib/save/save.ts";
import { knobs, memWorld, ROOT, SID, transcriptLine } from "../../helpers/save-deps.ts";
import type { SaveRequest } from "../../../lib/save/save-run.ts";

function request(w: ReturnType<typeof memWorld>, over: Partial<SaveRequest> = {}): SaveRequest {
  return {
    paths: w.paths,
    launchCwd: ROOT,
    sessionId: null,
    transcriptPath: null,
    mode: "restore",
    noCleanup: false,
    knobs: knobs(),
    blockers: [],
    nextUp: [],
    completed: [],
    notes: [],
    ...over,
  };
}

describe("a save that knows nothing of the session writes nothing", () => {
  it("no id, no transcript, no words from the model: refused, no file", () => {
    const w = memWorld();
    const out = runSave(w.deps, request(w));
    expect(out).toMatchObject({ ok: false, reason: expect.stringContaining("nothing to save") });
    expect(w.files()).toEqual([]);
  });

  it("a transcript path that does not exist counts as none", () => {
    const w = memWorld();
    expect(runSave(w.deps, request(w, { transcriptPath: `${ROOT}/gone.jsonl` })).ok).toBe(false);
  });

  it.each<[string, Partial<SaveRequest>]>([
    ["a session id", { sessionId: SID }],
    ["a readable transcript", { transcriptPath: `${ROOT}/t.jsonl` }],
    ["the task", { task: "t" }],
    ["an in-progress line", { inProgress: "x" }],
    ["a next-up item", { nextUp: [{ item: "x", prerequisitesMet: true }] }],
    ["a decision", { decisions: ["x"] }],
  ])("any one thing known (%s) is saved", (_label, over) => {
    const w = memWorld({ [`${ROOT}/t.jsonl`]: transcriptLine(1000) });
    expect(runSave(w.deps, request(w, over)).ok).toBe(true);
  });
});
