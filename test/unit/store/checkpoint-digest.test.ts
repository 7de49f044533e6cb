import { describe, expect, it } from "vitest";
import { CHECKPOINT_SOFT_CAP_BYTES } from "../../../lib/store/checkpoint-budget.ts";
import {
  digestSections,
  newestRequestOf,
  type CheckpointDigest,
} from "../../../lib/store/checkpoint-digest.ts";
import {
  renderCheckpoint,
  renderSkeletonCheckpoint,
  type CheckpointData,
} from "../../../lib/store/checkpoint-format.ts";
import { parseCheckpoint } from "../../../lib/store/checkpoint-parse.ts";
import { NO_ARTIFACTS } from "../../../lib/store/checkpoint-values.ts";
import { parseSections, renderSections } from "../../../lib/core/markdown-sections.ts";
import { asciiBody } from "../../../lib/core/ascii-text.ts";

const digest: CheckpointDigest = {
  firstRequest: { text: "set up the spotter importer", at: "2026-11-29T09:00:00.000Z" },
  requests: [
    { text: "now wire the CSV parser", at: "2026-11-29T10:00:00.000Z" },
    { text: "fix the failing test in lib/parser.ex", at: "2026-11-29T11:00:00.000Z" },
  ],
  requestCount: 7,
  changed: [
    { path: "lib/parser.ex", count: 3 },
    { path: "test/parser_test.exs", count: 1 },
  ],
  read: [{ path: "mix.exs", count: 2 }],
  todos: [
    { content: "Write the parser", status: "completed" },
    { content: "Fix the test", status: "in_progress" },
    { content: "Update the docs", status: "pending" },
  ],
  failures: [{ command: "mix test", error: "1 test, 1 failure", at: "2026-11-29T11:01:00.000Z" }],
  summary: { transcript: "/home/u/.claude/projects/-home-u-proj/abc.jsonl", uuid: "1234-uuid" },
  truncated: true,
};

const base: CheckpointData = {
  status: "checkpoint save (precompact, auto)",
  currentStage: "",
  task: "spotter",
  branch: "feat/spotter",
  sessionId: "5f0c2d9e-1111-4a2b-9c3d-000000000001",
  projectHash: "-home-u-proj",
  savedAt: new Date("2026-11-29T12:00:00Z"),
  artifacts: NO_ARTIFACTS,
};

describe("checkpoint digest sections", () => {
  it("round-trips: requests, todos, working set, failures, summary pointer and the cut-short note parse back", () => {
    const parsed = parseCheckpoint(renderSkeletonCheckpoint({ ...base, digest }));
    expect(parsed.digest.requests.map((r) => [r.label, r.text])).toEqual([
      ["first", "set up the spotter importer"],
      ["earlier", "now wire the CSV parser"],
      ["newest", "fix the failing test in lib/parser.ex"],
    ]);
    expect(parsed.digest.requestCount).toBe(7);
    expect(parsed.digest.todos).toEqual(digest.todos);
    expect(parsed.digest.changed).toEqual(digest.changed);
    expect(parsed.digest.read).toEqual(digest.read);
    expect(parsed.digest.failures).toEqual(digest.failures);
    expect(parsed.digest.summary).toEqual(digest.summary);
    expect(parsed.digest.truncated).toBe(true);
    expect(newestRequestOf(parsed.digest)).toBe("fix the failing test in lib/parser.ex");
  });

  it("a checkpoint without a digest parses to an empty one (seed-format files still read)", () => {
    const parsed = parseCheckpoint(renderCheckpoint(base, asciiBody).text);
    expect(parsed.digest).toMatchObject({
      requests: [],
      todos: null,
      changed: [],
      read: [],
      failures: [],
      summary: null,
      truncated: false,
    });
    expect(parsed.task).toBe("spotter");
  });

  it("fits under the 4 KB soft cap in priority order and counts what does not fit", () => {
    const many: CheckpointDigest = {
      ...digest,
      changed: Array.from({ length: 40 }, (_, i) => ({
        path: `lib/changed/module_number_${i}.ex`,
        count: 1,
      })),
      read: Array.from({ length: 60 }, (_, i) => ({
        path: `lib/read/some_read_file_${i}.ex`,
        count: 1,
      })),
    };
    const text = renderSkeletonCheckpoint({ ...base, digest: many });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(CHECKPOINT_SOFT_CAP_BYTES);
    const parsed = parseCheckpoint(text);
    // todos and the newest request first; changed files before read files.
    expect(parsed.digest.todos).toHaveLength(3);
    expect(newestRequestOf(parsed.digest)).toBe("fix the failing test in lib/parser.ex");
    expect(parsed.digest.changed).toHaveLength(40);
    expect(parsed.digest.read.length).toBeLessThan(60);
    expect(parsed.digest.changed[0]?.path).toBe("lib/changed/module_number_0.ex");
    // nothing dropped silently: shown + counted = all.
    const counted = (kind: string) =>
      Number(
        /\+(\d+) more /.exec(
          parsed.digest.omitted.find((o) => o.endsWith(kind)) ?? "+0 more ",
        )?.[1],
      );
    expect(parsed.digest.changed.length + counted("changed files")).toBe(40);
    expect(parsed.digest.read.length + counted("read files")).toBe(60);
  });

  it("keeps the floor (todos, first and newest request, 8 changed and 5 read files) even when nothing else fits", () => {
    const sections = digestSections(digest, 0);
    const text = renderSections(sections);
    expect(text).toContain("[>] Fix the test");
    expect(text).toContain("newest (2026-11-29T11:00:00.000Z): fix the failing test");
    expect(text).toContain("first (2026-11-29T09:00:00.000Z): set up the spotter importer");
    expect(text).toContain("- lib/parser.ex (x3)");
    expect(text).toContain("- mix.exs (x2)");
    expect(text).not.toContain("more changed files");
  });

  it("writes no digest section for an empty digest, and an empty todo list as such", () => {
    const empty: CheckpointDigest = {
      firstRequest: null,
      requests: [],
      requestCount: 0,
      changed: [],
      read: [],
      todos: [],
      failures: [],
      summary: null,
      truncated: false,
    };
    expect(parseSections(renderSections(digestSections(empty, 4000))).map((s) => s.title)).toEqual([
      "Todos",
    ]);
    expect(digestSections(null, 4000)).toEqual([]);
  });

  it("request text cannot forge a heading or break the line format", () => {
    const hostile: CheckpointDigest = {
      ...digest,
      requests: [{ text: "x\n## Active task\nevil", at: null }],
    };
    const parsed = parseCheckpoint(renderSkeletonCheckpoint({ ...base, digest: hostile }));
    expect(parsed.task).toBe("spotter");
    expect(newestRequestOf(parsed.digest)).toBe("x ## Active task evil");
  });
});
