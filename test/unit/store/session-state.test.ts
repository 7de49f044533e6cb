import { describe, expect, it } from "vitest";
import {
  intentFromUnfinished,
  mentionsSessionUuid,
  parseSessionState,
  taskFromSessionFileName,
} from "../../../lib/store/session-state.ts";
import { locateSessionState } from "../../../lib/store/session-state-locate.ts";
import { fakeDeps } from "../../helpers/memfs-deps.ts";

const S = "/p/.workflow_artifacts/memory/sessions";
const SID = "5F0C2D9E-aaaa-bbbb-cccc-000000000001";

describe("session-state files", () => {
  it("takes the task from the file name", () => {
    expect(taskFromSessionFileName(`${S}/2026-11-29-parser-rewrite.md`)).toBe("parser-rewrite");
  });
  it("parses phase, stage, questions, decisions and unfinished work", () => {
    const text = [
      "# Session",
      "## Cost",
      `- Session UUID: ${SID}`,
      "- Phase: implement",
      "",
      "## Current stage",
      "review",
      "## Open questions",
      "- which API?",
      "## Decisions made",
      "- keep v1",
      "## Unfinished work",
      "- 1. \u23F3 T-04 wire up X",
      "",
    ].join("\n");
    expect(parseSessionState(`${S}/2026-11-29-parser.md`, text)).toEqual({
      task: "parser",
      phase: "implement",
      currentStage: "review",
      sessionUuid: SID,
      openQuestions: "- which API?",
      decisions: "- keep v1",
      unfinished: "- 1. \u23F3 T-04 wire up X",
    });
  });
  it.each([
    ["- 1. \u23F3 T-04 wire up X", "T-04 wire up X"],
    ["* \u2713 done thing  ", "done thing"],
    ["\n\n  2) \u{1F6AB} blocked item", "blocked item"],
    ["plain", "plain"],
  ])("B3 intent from %j is %j", (unfinished, intent) => {
    expect(intentFromUnfinished(unfinished)).toBe(intent);
  });
  it("matches the UUID anchor case-insensitively, bulleted or not", () => {
    expect(mentionsSessionUuid(`- Session UUID: ${SID.toLowerCase()}`, SID)).toBe(true);
    expect(mentionsSessionUuid(`Session UUID: ${SID}`, SID)).toBe(true);
    expect(mentionsSessionUuid(`See Session UUID: ${SID}`, SID)).toBe(false);
  });
});

describe("locateSessionState (step 1.1)", () => {
  const files = {
    [`${S}/2026-11-28-alpha.md`]: `- Session UUID: ${SID}\n`,
    [`${S}/2026-11-29-beta.md`]: "- Session UUID: other\n",
  };
  it("finds the file by UUID anchor even when another is newer", () => {
    const deps = fakeDeps({ files });
    deps.touch(`${S}/2026-11-28-alpha.md`, "2026-11-28T10:00:00Z");
    deps.touch(`${S}/2026-11-29-beta.md`, "2026-11-29T10:00:00Z");
    const r = locateSessionState(deps.fs, S, SID);
    expect(r).toMatchObject({ file: `${S}/2026-11-28-alpha.md`, resolution: "uuid-anchor" });
    expect(r.messages[0]).toContain("located by UUID anchor");
  });
  it("falls back to mtime with the seed's warnings", () => {
    const deps = fakeDeps({ files });
    deps.touch(`${S}/2026-11-28-alpha.md`, "2026-11-28T10:00:00Z");
    deps.touch(`${S}/2026-11-29-beta.md`, "2026-11-29T10:00:00Z");
    expect(locateSessionState(deps.fs, S, "nobody-1")).toMatchObject({
      file: `${S}/2026-11-29-beta.md`,
      resolution: "mtime-fallback",
      messages: [
        "[checkpoint] WARNING: no session-state file contains Session UUID 'nobody-1'; falling back to mtime ordering",
      ],
    });
    expect(locateSessionState(deps.fs, S, null).messages).toEqual([
      "[checkpoint] WARNING: session UUID unavailable; using mtime fallback",
    ]);
  });
  it("warns when two files carry the same UUID and picks the newer", () => {
    const deps = fakeDeps({
      files: { ...files, [`${S}/2026-11-29-gamma.md`]: `Session UUID: ${SID}\n` },
    });
    deps.touch(`${S}/2026-11-28-alpha.md`, "2026-11-28T10:00:00Z");
    deps.touch(`${S}/2026-11-29-gamma.md`, "2026-11-29T11:00:00Z");
    const r = locateSessionState(deps.fs, S, SID);
    expect(r.file).toBe(`${S}/2026-11-29-gamma.md`);
    expect(r.messages[0]).toContain("multiple session-state files match UUID");
  });
});
