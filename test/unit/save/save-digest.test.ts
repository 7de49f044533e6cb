import { describe, expect, it } from "vitest";
import { parseCheckpoint } from "../../../lib/store/checkpoint-parse.ts";
import { runSave } from "../../../lib/save/save.ts";
import type { SaveDone, SaveRequest } from "../../../lib/save/save-run.ts";
import { knobs, memWorld, ROOT, SID, type MemWorld } from "../../helpers/save-deps.ts";
import { workSessionLines } from "../../helpers/transcripts.ts";

const TRANSCRIPT = "/home/u/.claude/projects/-home-u-proj/t.jsonl";

function request(w: MemWorld, over: Partial<SaveRequest> = {}): SaveRequest {
  return {
    paths: w.paths,
    launchCwd: ROOT,
    sessionId: SID,
    mode: null,
    noCleanup: true,
    transcriptPath: TRANSCRIPT,
    knobs: knobs(),
    blockers: [],
    nextUp: [],
    completed: [],
    notes: [],
    ...over,
  };
}
const ok = (out: ReturnType<typeof runSave>): SaveDone => {
  if (!out.ok) throw new Error(out.reason);
  return out;
};

describe("save: every checkpoint carries the transcript digest", () => {
  it("the voluntary save puts it beside the model's own fields, and names its task after the branch", () => {
    const w = memWorld({
      [TRANSCRIPT]: `${workSessionLines(ROOT).join("\n")}\n`,
      [`${ROOT}/.git/HEAD`]: "ref: refs/heads/feat/csv\n",
    });
    const out = ok(
      runSave(w.deps, request(w, { inProgress: "T-2 wiring", done: ["T-1 exporter"] })),
    );
    const p = parseCheckpoint(w.fs.readFileSync(out.checkpoint!, "utf8") as string);
    expect(p.task).toBe("feat-csv");
    expect(p.inProgress).toBe("T-2 wiring");
    expect(p.done).toEqual(["T-1 exporter"]);
    expect(p.digest.changed.map((f) => f.path)).toEqual(["lib/csv-export.ts"]);
    expect(p.digest.read.map((f) => f.path)).toEqual(["lib/report.ts"]);
    expect(p.digest.todos?.map((t) => t.status)).toEqual(["completed", "in_progress"]);
    expect(p.digest.requests.map((r) => r.text)).toEqual([
      "Add CSV export to the report page",
      "now wire the download button",
    ]);
    // no --intent: the newest request stands in, so the picker row can tell saves apart
    expect(p.intent).toBe("(newest request) now wire the download button");
  });

  it("on main with no session-state the task is a slug of the first request, never unknown", () => {
    const w = memWorld({
      [TRANSCRIPT]: `${workSessionLines(ROOT).join("\n")}\n`,
      [`${ROOT}/.git/HEAD`]: "ref: refs/heads/main\n",
    });
    const out = ok(runSave(w.deps, request(w)));
    expect(parseCheckpoint(w.fs.readFileSync(out.checkpoint!, "utf8") as string).task).toBe(
      "add-csv-export-to-the-report",
    );
  });

  it("the panic tier's skeleton carries it too", () => {
    const w = memWorld({
      [TRANSCRIPT]: `${workSessionLines(ROOT, 200_000).join("\n")}\n`,
      [`${ROOT}/.git/HEAD`]: "ref: refs/heads/feat/csv\n",
    });
    const out = ok(runSave(w.deps, request(w)));
    expect(out.mode).toBe("panic");
    const p = parseCheckpoint(w.fs.readFileSync(out.checkpoint!, "utf8") as string);
    expect(p.status).toBe("checkpoint save (panic mode)");
    expect(p.digest.changed.map((f) => f.path)).toEqual(["lib/csv-export.ts"]);
    expect(p.digest.todos).toHaveLength(2);
  });
});

describe("save: a document cut to fit the 6 KB cap says so", () => {
  it("warns with what was cut, and a document that fits gets no such line", () => {
    const w = memWorld({
      [TRANSCRIPT]: `${workSessionLines(ROOT).join("\n")}\n`,
      [`${ROOT}/.git/HEAD`]: "ref: refs/heads/feat/csv\n",
    });
    const long = ok(
      runSave(
        w.deps,
        request(w, {
          mode: "restore",
          inProgress: "T-2 wiring",
          done: Array.from({ length: 12 }, (_, i) => `T-${i} ${"d".repeat(350)}`),
          decisions: Array.from({ length: 6 }, (_, i) => `decision ${i} ${"c".repeat(200)}`),
        }),
      ),
    );
    expect(long.warnings.filter((l) => l.includes("cut to fit the 6 KB cap"))).toEqual([
      expect.stringMatching(
        /^\[checkpoint\] cut to fit the 6 KB cap: \d+ done items, \d+ decisions \(/,
      ),
    ]);
    const short = ok(runSave(w.deps, request(w, { mode: "restore", done: ["T-1 exporter"] })));
    expect(short.warnings.some((l) => l.includes("cut to fit"))).toBe(false);
  });
});
