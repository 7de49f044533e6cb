import { describe, expect, it } from "vitest";
import { asciiBody } from "../../../lib/core/ascii-text.ts";
import { sectionBody, parseSections } from "../../../lib/core/markdown-sections.ts";
import {
  CHECKPOINT_HARD_CAP_BYTES,
  CHECKPOINT_SOFT_CAP_BYTES,
  FLOOR,
} from "../../../lib/store/checkpoint-budget.ts";
import type { CheckpointDigest } from "../../../lib/store/checkpoint-digest.ts";
import {
  renderCheckpoint,
  renderSkeletonCheckpoint,
  type CheckpointData,
} from "../../../lib/store/checkpoint-format.ts";
import { parseCheckpoint } from "../../../lib/store/checkpoint-parse.ts";
import type { Handover } from "../../../lib/store/checkpoint-handover.ts";

// A budget with a floor, so that a long model document cannot push the mechanical facts out of the
// file. A /checkpoint with a 6 KB model document stays within the 6 KB hard cap and leaves every
// part of the floor in place; the model's fields are cut in the stated order with a count. An
// automatic checkpoint aims at the 4 KB soft cap.

const at = (m: number) =>
  `2026-11-29T1${Math.floor(m / 60)}:${String(m % 60).padStart(2, "0")}:00.000Z`;
const many = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

const digest: CheckpointDigest = {
  firstRequest: { text: `FIRST ${"f".repeat(400)}`, at: at(0) },
  requests: [{ text: `NEWEST ${"n".repeat(400)}`, at: at(50) }],
  requestCount: 9,
  changed: many(20, (i) => ({ path: `lib/changed_${i}.ex`, count: 1 })),
  read: many(20, (i) => ({ path: `lib/read_${i}.ex`, count: 1 })),
  todos: many(15, (i) => ({ content: `todo ${i}`, status: "pending" as const })),
  failures: many(6, (i) => ({ command: `cmd ${i}`, error: "boom", at: at(i) })),
  lastWords: many(4, (i) => ({ text: `word ${i} ${"w".repeat(280)}`, at: at(40 + i) })),
  summary: null,
  truncated: false,
};

const handover: Handover = {
  commits: many(12, (i) => ({
    hash: `abc${String(i).padStart(4, "0")}`,
    subject: `commit ${i}`,
    state: "present" as const,
  })),
  otherCommits: 3,
  uncommitted: [{ path: "lib/changed_0.ex", kind: "modified" }],
  gitNote: null,
};

const base: CheckpointData = {
  status: "checkpoint save (curated)",
  currentStage: "implement",
  task: "t",
  branch: "main",
  sessionId: "5f0c2d9e-1111-4a2b-9c3d-000000000001",
  projectHash: "-p",
  savedAt: new Date("2026-11-29T14:23:05Z"),
  artifacts: {
    currentPlan: null,
    architecture: null,
    criticResponse: null,
    review: null,
    sessionState: null,
    sessionStateResolution: null,
  },
  digest,
  handover,
};

const modelDoc: Partial<CheckpointData> = {
  modelDocument: true,
  inProgress: "x".repeat(600),
  done: many(15, (i) => `done item ${i} ${"d".repeat(80)}`),
  nextUp: many(10, (i) => ({ item: `next ${i} ${"n".repeat(60)}`, prerequisitesMet: true })),
  blockers: ["one blocker"],
  decisions: many(22, (i) => `- decision ${i} ${"c".repeat(90)}`).join("\n"),
  openQuestions: many(8, (i) => `- question ${i} ${"q".repeat(60)}`).join("\n"),
};

function assertFloor(text: string): void {
  const p = parseCheckpoint(text);
  expect(p.digest.requests.find((r) => r.label === "first")?.text).toMatch(/^FIRST f+/);
  expect(p.digest.requests.find((r) => r.label === "newest")?.text).toMatch(/^NEWEST n+/);
  expect(p.digest.requests.find((r) => r.label === "first")!.text.length).toBeLessThanOrEqual(
    FLOOR.requestChars,
  );
  expect(p.digest.lastWords?.map((w) => w.text.slice(0, 6))).toEqual([
    "word 0",
    "word 1",
    "word 2",
    "word 3",
  ]);
  expect(p.checkedCommits).toHaveLength(FLOOR.commitLines);
  expect(p.checkedCommits.at(-1)?.subject).toBe("commit 11");
  expect(p.otherCommits).toBe(3);
  expect(p.digest.todos!.length).toBeGreaterThanOrEqual(FLOOR.todos);
  expect(p.digest.changed.length).toBeGreaterThanOrEqual(FLOOR.changedFiles);
  expect(p.digest.read.length).toBeGreaterThanOrEqual(FLOOR.readFiles);
  expect(p.digest.failures.map((f) => f.command).slice(-3)).toEqual(["cmd 3", "cmd 4", "cmd 5"]);
  expect(p.uncommitted).toEqual([{ path: "lib/changed_0.ex", kind: "modified" }]);
}

describe("the checkpoint budget", () => {
  it("a 6 KB model document stays within the 6 KB hard cap and leaves the floor intact", () => {
    const d = { ...base, ...modelDoc };
    const docBytes = JSON.stringify(modelDoc).length;
    expect(docBytes).toBeGreaterThan(6000);
    const text = renderCheckpoint(d, asciiBody).text;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(CHECKPOINT_HARD_CAP_BYTES);
    assertFloor(text);
    // cut first: open questions, then decisions; each with its count
    const sections = parseSections(text);
    expect(sectionBody(sections, "Open questions")).toMatch(
      /\+\d+ more open questions \(cut to fit 6 KB\)/,
    );
    expect(sectionBody(sections, "Decisions made")).toMatch(
      /\+\d+ more decisions \(cut to fit 6 KB\)/,
    );
    // the in-progress line, last in the cut order, is kept
    expect(sectionBody(sections, "In progress")).toContain("x".repeat(100));
  });

  it("an over-long document gives up the tails of its lists before any field's first line", () => {
    // What the real-model play of /checkpoint --share wrote (2,951 characters): six next-up items
    // pushed out every decision and open question when fields were emptied one after another.
    const items = (label: string, n: number, len: number) =>
      Array.from({ length: n }, (_, i) => `- ${label} ${i} ${"w".repeat(len)}`).join("\n");
    const d = {
      ...base,
      modelDocument: true,
      done: many(3, (i) => `done ${i} ${"d".repeat(350)}`),
      inProgress: `in progress ${"p".repeat(300)}`,
      nextUp: many(8, (i) => ({ item: `next ${i} ${"n".repeat(250)}`, prerequisitesMet: true })),
      openQuestions: items("question", 2, 60),
      decisions: items("decision", 3, 60),
    };
    const text = renderCheckpoint(d, asciiBody).text;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(CHECKPOINT_HARD_CAP_BYTES);
    assertFloor(text);
    const sections = parseSections(text);
    expect(sectionBody(sections, "Decisions made")).toContain("- decision 0 ");
    expect(sectionBody(sections, "Open questions")).toContain("- question 0 ");
    expect(sectionBody(sections, "Done this session")).toContain("done 0 ");
    expect(sectionBody(sections, "Next up")).toContain("next 0 ");
    expect(sectionBody(sections, "Next up")).toMatch(
      /\+\d+ more next-up items \(cut to fit 6 KB\)/,
    );
    expect(sectionBody(sections, "In progress")).toContain("p".repeat(300));
  });

  it("an automatic checkpoint keeps the floor within the 4 KB soft cap", () => {
    const text = renderSkeletonCheckpoint(base);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(CHECKPOINT_SOFT_CAP_BYTES);
    assertFloor(text);
  });

  it("a small model document is not cut", () => {
    const text = renderCheckpoint(
      { ...base, modelDocument: true, decisions: "- keep it" },
      asciiBody,
    ).text;
    expect(text).not.toContain("cut to fit");
    expect(sectionBody(parseSections(text), "Decisions made")).toBe("- keep it");
  });
});
