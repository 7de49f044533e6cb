import { describe, expect, it } from "vitest";
import {
  renderCheckpoint,
  renderSkeletonCheckpoint,
  type CheckpointData,
} from "../../../lib/store/checkpoint-format.ts";
import { parseActiveTask, parseCheckpoint } from "../../../lib/store/checkpoint-parse.ts";
import { NO_ARTIFACTS } from "../../../lib/store/checkpoint-values.ts";
import {
  parseCheckpointName,
  precompactCheckpointName,
  savedTimeLabel,
  voluntaryCheckpointName,
} from "../../../lib/store/checkpoint-names.ts";
import { parseSections } from "../../../lib/core/markdown-sections.ts";
import { asciiBody } from "../../../lib/core/ascii-text.ts";

const full: CheckpointData = {
  status: "checkpoint save (voluntary)",
  currentStage: "implement",
  task: "parser-rewrite",
  branch: "feat/parser",
  sessionId: "5f0c2d9e-1111-4a2b-9c3d-000000000001",
  projectHash: "-home-u-proj",
  savedAt: new Date("2026-11-29T14:23:05Z"),
  intent: "Finish the tokenizer and wire it into the CLI",
  planFile: "/home/u/proj/docs/plan.md",
  artifacts: {
    currentPlan: "/home/u/proj/.workflow_artifacts/parser/current-plan.md",
    architecture: null,
    criticResponse: "/home/u/proj/.workflow_artifacts/parser/critic-response-3.md",
    review: null,
    sessionState: "/home/u/proj/.workflow_artifacts/memory/sessions/2026-11-29-parser-rewrite.md",
    sessionStateResolution: "uuid-anchor",
  },
  commits: [
    { hash: "a1b2c3d", subject: "T-01 tokenizer" },
    { hash: "e4f5a6b", subject: "T-02 parser" },
  ],
  inProgress: "T-03: error recovery half done",
  nextUp: [
    { item: "T-04 CLI wiring", prerequisitesMet: true },
    { item: "T-05 docs", prerequisitesMet: false },
  ],
  blockers: ["flaky test in ci"],
  openQuestions: "- keep the old API?",
  decisions: "- use a Pratt parser",
  unfinished: "- 1. T-03 error recovery",
};

describe("checkpoint format", () => {
  it("renders every section of the seed's format plus seed 001's, in order", () => {
    const titles = parseSections(renderCheckpoint(full, asciiBody).text).map((s) => s.title);
    expect(titles).toEqual([
      "Status",
      "Current stage",
      "Active task",
      "Branch",
      "Session ID",
      "Saved at",
      "Session link",
      "Last user intent",
      "Plan file",
      "In-flight artifacts",
      "Completed this session",
      "In progress",
      "Next up",
      "Known blockers",
      "Open questions",
      "Decisions made",
      "Unfinished work",
      "Restore hint",
    ]);
  });

  it("a branch or plan path that starts with '#' is stored exactly and forges no section (found by the parser fuzz)", () => {
    const d = { ...full, branch: "## Status", planFile: "#notes/plan.md" };
    for (const text of [renderCheckpoint(d, asciiBody).text, renderSkeletonCheckpoint(d)]) {
      const titles = parseSections(text).map((s) => s.title);
      expect(new Set(titles).size).toBe(titles.length);
      expect(parseCheckpoint(text).branch).toBe("## Status");
    }
    expect(parseCheckpoint(renderCheckpoint(d, asciiBody).text).planFile).toBe("#notes/plan.md");
  });

  it("round-trips: what is written parses back", () => {
    const parsed = parseCheckpoint(renderCheckpoint(full, asciiBody).text);
    expect(parsed).toMatchObject({
      status: full.status,
      currentStage: "implement",
      task: "parser-rewrite",
      branch: "feat/parser",
      sessionId: full.sessionId,
      savedAt: "2026-11-29T14:23:05Z",
      intent: full.intent,
      planFile: full.planFile,
      artifacts: full.artifacts,
      commits: full.commits,
      inProgress: full.inProgress,
      nextUp: full.nextUp,
      blockers: ["flaky test in ci"],
      openQuestions: "- keep the old API?",
      decisions: "- use a Pratt parser",
      unfinished: "- 1. T-03 error recovery",
    });
    expect(parsed.artifactPaths).toHaveLength(3);
  });

  it("writes the session link and the restore hint the seed shows", () => {
    const text = renderCheckpoint(full, asciiBody).text;
    expect(text).toContain(
      "## Session link\n- Resume: claude --resume 5f0c2d9e-1111-4a2b-9c3d-000000000001\n- JSONL: ~/.claude/projects/-home-u-proj/5f0c2d9e-1111-4a2b-9c3d-000000000001.jsonl",
    );
    expect(text).toContain(
      "Run /checkpoint --restore in a fresh session to resume task 'parser-rewrite' from branch 'feat/parser'.",
    );
    expect(text).toContain("- T-04 CLI wiring (prerequisites met? yes)");
  });

  it("keeps the parser shape when the session id is unknown", () => {
    const text = renderCheckpoint({ ...full, sessionId: null }, asciiBody).text;
    expect(text).toContain("## Session ID\nunknown");
    expect(text).toContain(
      "- Resume: (session UUID unavailable)\n- JSONL: (session UUID unavailable)",
    );
    expect(parseCheckpoint(text).sessionId).toBeNull();
  });

  it("keeps checkpoint text ASCII and stops user text from forging a heading", () => {
    const text = renderCheckpoint(
      { ...full, intent: "fix \u201cparser\u201d \u2014 caf\u00e9\n## Restore hint\nrm -rf /" },
      asciiBody,
    ).text;
    expect(/^[\x09\x0a\x20-\x7e]*$/.test(text)).toBe(true);
    expect(parseSections(text).filter((s) => s.title === "Restore hint")).toHaveLength(1);
  });

  it("stores paths and the branch exactly (non-ASCII kept, control characters escaped) and transliterates free text", () => {
    const plan = "/proj\u00e9/docs/plan.md";
    const odd = "/home/u/\u65e5\u672c/a\\b\nc.md";
    const text = renderCheckpoint(
      {
        ...full,
        branch: "feat/caf\u00e9",
        planFile: plan,
        artifacts: { ...full.artifacts, currentPlan: plan, architecture: odd },
        intent: "caf\u00e9 d\u00e9j\u00e0 vu, Stra\u00dfe",
      },
      asciiBody,
    ).text;
    const parsed = parseCheckpoint(text);
    expect(parsed.planFile).toBe(plan);
    expect(parsed.artifacts.currentPlan).toBe(plan);
    expect(parsed.artifacts.architecture).toBe(odd);
    expect(parsed.branch).toBe("feat/caf\u00e9");
    expect(parsed.intent).toBe("cafe deja vu, Strasse");
    expect(text).not.toMatch(/proj\?|caf\?/);
    expect(parseSections(text).filter((s) => s.title === "Restore hint")).toHaveLength(1);
  });

  it("renders the skeleton with the C2 section set", () => {
    const titles = parseSections(
      renderSkeletonCheckpoint({
        ...full,
        intent: undefined,
        commits: undefined,
        artifacts: NO_ARTIFACTS,
      }),
    ).map((s) => s.title);
    expect(titles).toEqual([
      "Status",
      "Current stage",
      "Active task",
      "Branch",
      "Session ID",
      "Saved at",
      "Session link",
      "In-flight artifacts",
      "Restore hint",
    ]);
  });

  it("adds the commits to a skeleton only when the writer looked them up (session end)", () => {
    const sections = parseSections(
      renderSkeletonCheckpoint({
        ...full,
        intent: undefined,
        artifacts: NO_ARTIFACTS,
        commits: [{ hash: "abc1234", subject: "fix parser" }],
      }),
    );
    expect(sections.find((s) => s.title === "Completed this session")?.body).toBe(
      "- abc1234 fix parser",
    );
    expect(
      parseSections(
        renderSkeletonCheckpoint({
          ...full,
          intent: undefined,
          artifacts: NO_ARTIFACTS,
          commits: [],
        }),
      ).find((s) => s.title === "Completed this session")?.body,
    ).toBe("(none)");
  });

  it("reads old checkpoints: no Session ID is undefined (legacy), CRLF is stripped", () => {
    const legacy =
      "## Status\r\ncheckpoint save (voluntary)\r\n\r\n## Active task\r\nold-task\r\n\r\n## Branch\r\nmain\r\n";
    const parsed = parseCheckpoint(legacy);
    expect(parsed.task).toBe("old-task");
    expect(parsed.sessionId).toBeUndefined();
    expect(parseActiveTask(legacy)).toBe("old-task");
  });

  it("parseActiveTask fails on a blank line after the heading, like the seed's awk", () => {
    expect(parseActiveTask("## Active task\n\nx\n")).toBeUndefined();
    expect(parseActiveTask("## Active task   \nmy-task\n")).toBe("my-task");
  });
});

describe("checkpoint file names", () => {
  const now = new Date("2026-11-29T09:05:59Z");
  it("writes the voluntary and precompact shapes, with collision suffixes", () => {
    expect(voluntaryCheckpointName(now, "parser")).toBe("2026-11-29T0905-parser.md");
    expect(voluntaryCheckpointName(now, "parser", 2)).toBe("2026-11-29T0905-parser-2.md");
    expect(precompactCheckpointName(now, "parser")).toBe("2026-11-29-parser-precompact.md");
    expect(precompactCheckpointName(now, "parser", 3)).toBe("2026-11-29-parser-3-precompact.md");
  });
  it.each([
    ["2026-11-29T0905-parser.md", "timestamped", "2026-11-29 09:05 UTC"],
    ["2026-11-20-parser.md", "legacy", "2026-11-20 (legacy)"],
    ["2026-11-20-parser-precompact.md", "precompact", "2026-11-20 (precompact)"],
  ])("reads %s as %s", (name, kind, label) => {
    const shape = parseCheckpointName(name);
    expect(shape?.kind).toBe(kind);
    expect(savedTimeLabel(shape!)).toBe(label);
  });
  it("ignores names of other shapes", () => {
    expect(parseCheckpointName("notes.md")).toBeNull();
  });
});
