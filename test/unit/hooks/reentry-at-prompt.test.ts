import { describe, expect, it } from "vitest";
import { handleUserPromptSubmit } from "../../../lib/hooks/user-prompt-submit.ts";
import { reentryAtPrompt } from "../../../lib/hooks/reentry-at-prompt.ts";
import { PROMPT_REENTRY_HEAD } from "../../../lib/notes/reentry-note.ts";
import { renderSkeletonCheckpoint } from "../../../lib/store/checkpoint-format.ts";
import { NO_ARTIFACTS } from "../../../lib/store/checkpoint-values.ts";
import { CKPTS, knobs, MEM, memWorld, ROOT, SID } from "../../helpers/save-deps.ts";

// The first prompt after a compaction (reentry-at-prompt.ts): what the summary dropped, counted
// so nothing goes unmentioned, given even with a prompt that gets no advisory.

const TRANSCRIPT = "/home/u/.claude/projects/-home-u-proj/s.jsonl";
const CKPT = `${CKPTS}/2026-11-29-csv-precompact.md`;
const REQUESTS = [
  "Add CSV export",
  "make it a stream",
  "add a header row",
  "quote the commas",
  "now wire the download button",
];

function world(summary: string, boundaryAt = "2026-11-29T21:07:26.120Z") {
  const checkpoint = renderSkeletonCheckpoint({
    status: "checkpoint save (precompact, auto trigger)",
    currentStage: "",
    task: "csv",
    branch: "feat/csv",
    sessionId: SID,
    projectHash: "-home-u-proj",
    savedAt: new Date("2026-11-29T21:00:00Z"),
    artifacts: NO_ARTIFACTS,
    digest: {
      firstRequest: { text: REQUESTS[0]!, at: null },
      requests: REQUESTS.map((text) => ({ text, at: null })),
      requestCount: REQUESTS.length,
      changed: [{ path: "lib/csv-export.ts", count: 2 }],
      read: [{ path: "lib/report.ts", count: 1 }],
      todos: [{ content: "Wire the download button", status: "in_progress" }],
      failures: [],
      summary: null,
      truncated: false,
    },
  });
  return memWorld({
    [CKPT]: checkpoint,
    [`${MEM}/postcompact-reset-${SID}.txt`]: `compacted_at=2026-11-29T21:07:26Z\nsession_id=${SID}\n`,
    [TRANSCRIPT]: `${JSON.stringify({ type: "system", subtype: "compact_boundary", timestamp: boundaryAt })}\n${JSON.stringify({ type: "user", isCompactSummary: true, message: { role: "user", content: summary } })}\n`,
  });
}
const sentinel = `compacted_at=2026-11-29T21:07:26Z\nsession_id=${SID}\n`;

describe("reentryAtPrompt", () => {
  it("names how many requests the summary dropped when it shows only the newest three", () => {
    const w = world("We worked on lib/report.ts.");
    const note = reentryAtPrompt(w.deps, w.paths, SID, TRANSCRIPT, sentinel)!;
    expect(note.startsWith(PROMPT_REENTRY_HEAD)).toBe(true);
    expect(note).toContain("The summary kept 1 of 2 paths, 0 of 5 requests and 0 of 1 todos");
    expect(note).toContain(
      "Requests it dropped (oldest first, the newest 3 of 5): add a header row",
    );
    expect(note).toContain("Newest changed file: lib/csv-export.ts");
    expect(note).not.toContain("Paths it dropped");
  });

  it("adds nothing when SessionStart(compact) already gave the list", () => {
    const w = world("We worked on lib/report.ts.");
    expect(
      reentryAtPrompt(w.deps, w.paths, SID, TRANSCRIPT, `${sentinel}reentry=given\n`),
    ).toBeNull();
  });

  it("takes no summary whose boundary is older than compacted_at less 5 s", () => {
    const w = world(
      "We worked on lib/report.ts and lib/csv-export.ts.",
      "2026-11-29T21:07:20.000Z",
    );
    const note = reentryAtPrompt(w.deps, w.paths, SID, TRANSCRIPT, sentinel)!;
    expect(note).not.toContain("The summary kept");
    expect(note).toContain("Newest changed files: lib/csv-export.ts");
  });
});

describe("the prompt hook at the first prompt after a compaction", () => {
  it.each([["/checkpoint"], ["what next?"]])(
    "gives the list with %j, then never again",
    (prompt) => {
      const w = world("We worked on lib/report.ts.");
      const run = () =>
        handleUserPromptSubmit(
          w.deps,
          {
            session_id: SID,
            cwd: ROOT,
            hook_event_name: "UserPromptSubmit",
            prompt,
            transcript_path: TRANSCRIPT,
          },
          knobs(),
        );
      const first = run();
      const ctx =
        first && "hookSpecificOutput" in first ? first.hookSpecificOutput?.additionalContext : "";
      expect(ctx).toContain("The summary kept 1 of 2 paths");
      expect(w.fs.existsSync(`${MEM}/postcompact-reset-${SID}.txt`)).toBe(false);
      expect(JSON.stringify(run() ?? {})).not.toContain("Saved before the compaction");
    },
  );
});
