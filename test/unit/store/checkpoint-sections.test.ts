import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { asciiBody } from "../../../lib/core/ascii-text.ts";
import { escapeBody, unescapeBody } from "../../../lib/core/markdown-sections.ts";
import { runPreCompact } from "../../../lib/hooks/pre-compact.ts";
import { headFields } from "../../../lib/restore/checkpoint-heads.ts";
import {
  renderCheckpoint,
  renderSkeletonCheckpoint,
  renderValues,
  type CheckpointData,
} from "../../../lib/store/checkpoint-format.ts";
import { parseActiveTask, parseCheckpoint } from "../../../lib/store/checkpoint-parse.ts";
import { SECTIONS, SECTION_KEYS } from "../../../lib/store/checkpoint-sections.ts";
import type { CheckpointValues } from "../../../lib/store/checkpoint-values.ts";
import { checkpointData } from "../../guarantees/parser-table.ts";
import { fakeDeps } from "../../helpers/memfs-deps.ts";

// The section table is the format: parse(render(v)) gives v back for every value a writer can
// produce, every checkpoint this renderer wrote re-renders byte for byte from what was read, and
// no line of a field can be read as a heading, by this parser or by CommonMark.

/**
 * Would CommonMark start a heading (or a block that runs past the next heading) at this body
 * line? Written from the spec, apart from the escape: list and quote markers are stripped one
 * at a time, then up to three spaces, then the line's first characters decide.
 */
function commonMarkStart(line: string, previous: string | undefined): string | null {
  let rest = line;
  for (;;) {
    const m = /^ {0,3}(?:[-*+]|\d{1,9}[.)]|>)(?:[ \t]+|$)/.exec(rest);
    if (!m || m[0] === "") break;
    rest = rest.slice(m[0].length);
  }
  const body = rest.replace(/^ {0,3}/, "");
  if (/^ {4}/.test(rest)) return null;
  if (/^#{1,6}(?:[ \t]|$)/.test(body)) return "ATX heading";
  if (/^(?:`{3,}|~{3,})/.test(body)) return "code fence";
  if (/^<(?:script|pre|style|textarea)(?:[ \t>]|$)|^<!--|^<\?|^<![A-Za-z]|^<!\[CDATA\[/i.test(body))
    return "HTML block";
  if (previous !== undefined && previous.trim() !== "" && /^(?:=+|-+)[ \t]*$/.test(body))
    return "setext underline";
  return null;
}

function headingLikeLines(text: string): string[] {
  const out: string[] = [];
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    if (/^## /.test(line) && SECTION_KEYS.some((k) => line === `## ${SECTIONS[k].title}`)) return;
    const previous = i > 0 && !/^## /.test(lines[i - 1]!) ? lines[i - 1] : undefined;
    const what = commonMarkStart(line, previous);
    if (what) out.push(`${what}: ${line}`);
  });
  return out;
}

const base: CheckpointData = {
  status: "checkpoint save (voluntary)",
  currentStage: "implement",
  task: "parser",
  branch: "main",
  sessionId: "5f0c2d9e-1111-4a2b-9c3d-000000000001",
  projectHash: "-home-u-proj",
  savedAt: new Date("2026-11-29T14:23:05Z"),
  artifacts: {
    currentPlan: null,
    architecture: null,
    criticResponse: null,
    review: null,
    sessionState: null,
    sessionStateResolution: null,
  },
};

describe("a field's line is never a heading", () => {
  const hostile = [
    "## Active task",
    "  ## Active task",
    "   ### three spaces in",
    "- ## in a list item",
    "> # in a quote",
    "1. ## in an ordered item",
    "Title\n---",
    "Title\n===",
    "```\n## Next up",
    "~~~",
    "<!-- hides the rest",
    "<pre>",
    "\\## already escaped once",
    "\\\\# twice",
  ];

  it("escapes what CommonMark would read as a heading, and reads every field back as written", () => {
    for (const h of hostile) {
      const d = { ...base, decisions: `first\n${h}\nlast`, notes: [h], intent: h };
      const { text } = renderCheckpoint(d, asciiBody);
      expect(headingLikeLines(text), h).toEqual([]);
      const p = parseCheckpoint(text);
      expect(p.sections.map((s) => s.title).filter((t) => t === "Active task")).toHaveLength(1);
      expect(p.decisions).toBe(`first\n${h}\nlast`);
      expect(p.intent).toBe(h.trim());
      expect(p.task).toBe("parser");
    }
  });

  it("the skeleton's request text too", () => {
    const text = renderSkeletonCheckpoint({
      ...base,
      intent: "## Active task",
      digest: {
        firstRequest: { text: "```", at: null },
        requests: [],
        requestCount: 1,
        changed: [],
        read: [],
        todos: [{ content: "## x", status: "pending" }],
        failures: [],
        summary: null,
        truncated: false,
      },
    });
    expect(headingLikeLines(text)).toEqual([]);
    expect(parseCheckpoint(text).intent).toBe("## Active task");
  });

  const line = fc
    .array(
      fc.constantFrom("#", "##", " ", "-", "=", "`", "~", "<", "!", ">", "1.", "\\", "x", "pre"),
      { minLength: 1, maxLength: 8 },
    )
    .map((p) => p.join(""));

  it("escapeBody is undone exactly by unescapeBody, and leaves CommonMark no heading", () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 5 }), (lines) => {
        const body = lines.join("\n");
        const escaped = escapeBody(body);
        expect(unescapeBody(escaped)).toBe(body);
        expect(headingLikeLines(`## Notes\n${escaped}`)).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("the picker's cheap head reader agrees with the parser", () => {
  it("on escaped lines too: a task or intent that reads like a heading is a value, not a section", () => {
    for (const h of ["## Branch", "---", "\\## x", "```"]) {
      const { text } = renderCheckpoint(
        { ...base, task: `t ${h}`, intent: h, currentStage: h },
        asciiBody,
      );
      const p = parseCheckpoint(text);
      const f = headFields(text);
      expect([f.task, f.branch, f.sessionId, f.intent, f.status], h).toEqual([
        p.task,
        "main",
        p.sessionId,
        p.intent,
        p.status,
      ]);
      expect(parseActiveTask(text)).toBe(p.task);
    }
  });
});

describe("the uncommitted section's kinds", () => {
  it("reads the last (word) as the kind, so a kind this reader does not know leaves the path exact", () => {
    const text = `## Uncommitted\n- lib/a (draft).ts (modified)\n- lib/b.ts (copied)\n- lib/c.ts\n+2 more files\n`;
    expect(parseCheckpoint(text).uncommitted).toEqual([
      { path: "lib/a (draft).ts", kind: "modified" },
      { path: "lib/b.ts", kind: "modified" },
      { path: "lib/c.ts", kind: "modified" },
    ]);
    expect(parseCheckpoint(text).values.uncommitted?.more).toBe(2);
  });
});

// Values a writer can produce: one-line items and multi-line text with no space at either end,
// where heading tricks are welcome (the escape must undo them exactly).
const word = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.,:;'"=+/-]{0,10}$/);
const trick = fc.constantFrom("##", "#", "---", "```", "<!--", "\\#", "- #", "> #");
const oneLine = fc
  .array(fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: trick }), {
    minLength: 1,
    maxLength: 5,
  })
  .map((ws) => ws.join(" "))
  .filter((s) => !/^[-*+]\s|\(|\)|^\d/.test(s) && !/^none$/i.test(s) && !/^\+/.test(s));
const item = oneLine.filter((s) => !/^\s|\s$|^#/.test(s) && !/`/.test(s));
const text = fc.array(oneLine, { minLength: 1, maxLength: 3 }).map((ls) => ls.join("\n"));
const hex = fc.stringMatching(/^[0-9a-f]{7,12}$/);
const minute = fc.constantFrom("2026-11-29T10:04Z", "2026-12-01T23:59Z");
const sid = fc.constantFrom("5f0c2d9e-1111-4a2b-9c3d-000000000001", null);
const cut = fc.nat(4);
const count = fc.nat(5);
const cutText = fc.record({ text: fc.option(text, { nil: null }), cut });

const values: fc.Arbitrary<CheckpointValues> = fc
  .record(
    {
      status: item,
      currentStage: fc.option(text, { nil: null }),
      task: item,
      branch: oneLine,
      head: fc.option(fc.stringMatching(/^[0-9a-f]{40}$/), { nil: null }),
      sessionId: sid,
      savedAt: fc.constant("2026-11-29T14:23:05Z"),
      sessionLink: fc.record(
        {
          sessionId: sid,
          projectHash: fc.constant("-home-u-proj"),
          // a save that found no transcript says where it looked
          missing: item.map((s) => `/home/u/.claude/projects/p/${s}.jsonl`),
        },
        { requiredKeys: ["sessionId", "projectHash"] },
      ),
      intent: fc.option(text, { nil: null }),
      planFile: fc.option(
        item.map((s) => `/p/${s}`),
        { nil: null },
      ),
      artifacts: fc.record({
        currentPlan: fc.option(item, { nil: null }),
        architecture: fc.option(item, { nil: null }),
        criticResponse: fc.option(item, { nil: null }),
        review: fc.option(item, { nil: null }),
        sessionState: fc.option(item, { nil: null }),
        sessionStateResolution: fc.constantFrom(
          "uuid-anchor" as const,
          "mtime-fallback" as const,
          null,
        ),
      }),
      completed: fc.record(
        {
          commits: fc.array(
            fc.oneof(
              fc.record({
                hash: hex,
                subject: item,
                state: fc.constantFrom(
                  "present" as const,
                  "missing" as const,
                  "unchecked" as const,
                ),
              }),
              fc.record({
                hash: hex,
                subject: item,
                state: fc.constant("rebased" as const),
                oldHash: hex,
                subagent: fc.constant(true as const),
              }),
            ),
            { maxLength: 4 },
          ),
          more: count,
          otherCommits: fc.option(fc.integer({ min: 1, max: 9 }), { nil: null }),
          gitNote: fc.option(
            item.map((s) => `git: ${s}`),
            { nil: null },
          ),
          unknown: item.map((s) => `/t/${s}.jsonl`),
          closedItems: fc.integer({ min: 1, max: 9 }),
        },
        { requiredKeys: ["commits", "more", "otherCommits", "gitNote"] },
      ),
      uncommitted: fc.record(
        {
          files: fc.array(
            fc.record({
              path: item,
              kind: fc.constantFrom(
                "modified" as const,
                "added" as const,
                "deleted" as const,
                "untracked" as const,
                "renamed" as const,
                "unchecked" as const,
              ),
            }),
            { minLength: 1, maxLength: 3 },
          ),
          more: count,
          notKnown: fc.constant(true as const),
        },
        { requiredKeys: ["files", "more"] },
      ),
      done: fc.record({ items: fc.array(item, { minLength: 1, maxLength: 3 }), cut }),
      inProgress: cutText,
      nextUp: fc.record({
        items: fc.array(fc.record({ item, prerequisitesMet: fc.boolean() }), { maxLength: 3 }),
        cut,
      }),
      blockers: fc.record({ items: fc.array(item, { maxLength: 3 }), cut }),
      openQuestions: cutText,
      decisions: cutText,
      unfinished: cutText,
      lastWords: fc.array(fc.record({ text: item, at: fc.option(minute, { nil: null }) }), {
        minLength: 1,
        maxLength: 3,
      }),
      progress: fc.record({
        items: fc.array(fc.record({ text: item, at: fc.option(minute, { nil: null }) }), {
          minLength: 1,
          maxLength: 3,
        }),
        more: count,
      }),
      requests: fc
        .record({
          items: fc.array(
            fc.record({
              text: item,
              at: fc.option(minute, { nil: null }),
              label: fc.constantFrom("first" as const, "earlier" as const, "newest" as const),
            }),
            { minLength: 1, maxLength: 3 },
          ),
          more: count,
        })
        .map((r) => ({ ...r, count: r.more > 0 ? r.items.length + r.more : r.items.length })),
      todos: fc.record({
        items: fc.array(
          fc.record({
            content: item,
            status: fc.constantFrom(
              "pending" as const,
              "in_progress" as const,
              "completed" as const,
            ),
          }),
          { maxLength: 3 },
        ),
        more: count,
      }),
      workingSet: fc.record({
        changed: fc.array(fc.record({ path: item, count: fc.integer({ min: 1, max: 4 }) }), {
          maxLength: 3,
        }),
        changedMore: count,
        read: fc.array(fc.record({ path: item, count: fc.integer({ min: 1, max: 4 }) }), {
          maxLength: 3,
        }),
        readMore: count,
      }),
      failures: fc.record({
        items: fc.array(
          fc.record({ command: item, error: item, at: fc.option(minute, { nil: null }) }),
          { minLength: 1, maxLength: 3 },
        ),
        more: count,
      }),
      readFirst: fc.record(
        {
          items: fc.array(
            fc.record({
              path: item,
              why: fc.constantFrom(
                "uncommitted" as const,
                "in progress" as const,
                "read for it" as const,
                "edited earlier this session" as const,
                "committed" as const,
                "read" as const,
              ),
            }),
            { minLength: 1, maxLength: 3 },
          ),
          more: count,
          moreRead: count,
        },
        { requiredKeys: ["items", "more"] },
      ),
      compactionSummary: fc.record({ transcript: item, uuid: item }),
      transcriptDigest: fc.constant(true),
      notes: fc.array(item, { minLength: 1, maxLength: 2 }),
      restoreHint: fc.record({
        task: item.filter((s) => !s.includes("'")),
        branch: item.filter((s) => !s.includes("'")),
      }),
    },
    { requiredKeys: ["status", "task", "sessionId", "savedAt", "restoreHint"] },
  )
  .map((v) => {
    // A canonical value: a cut-only text field has no text, an empty list says nothing more.
    const fix = { ...v } as Record<string, unknown>;
    if (v.todos && !v.todos.items.length) fix["todos"] = { items: [], more: 0 };
    if (v.sessionLink && !v.sessionLink.sessionId)
      fix["sessionLink"] = {
        sessionId: null,
        projectHash: "",
        ...(v.sessionLink.missing ? { missing: v.sessionLink.missing } : {}),
      };
    if (v.completed && !v.completed.commits.length) fix["completed"] = { ...v.completed, more: 0 };
    // the unknown line stands in for "(none)": only a section with no commits holds it
    if (v.completed?.commits.length && v.completed.unknown !== undefined) {
      const { unknown: _, ...rest } = (fix["completed"] ?? v.completed) as typeof v.completed;
      fix["completed"] = rest;
    }
    // the closed items stand in for "(none)" too, after the unknown line
    const done = (fix["completed"] ?? v.completed) as typeof v.completed;
    if (done && (done.commits.length || done.unknown !== undefined) && "closedItems" in done) {
      const { closedItems: _, ...rest } = done;
      fix["completed"] = rest;
    }
    // the count of unlisted files says how many were only read: only a count above 0, not above it
    if (v.readFirst) {
      const { moreRead, ...rf } = v.readFirst;
      fix["readFirst"] =
        rf.more > 0 && moreRead !== undefined && moreRead <= rf.more ? { ...rf, moreRead } : rf;
    }
    if (v.workingSet) {
      const ws = v.workingSet;
      fix["workingSet"] = {
        ...ws,
        changedMore: ws.changed.length ? ws.changedMore : 0,
        readMore: ws.read.length ? ws.readMore : 0,
      };
    }
    return fix as CheckpointValues;
  });

describe("parse(render(v)) is v", () => {
  it("for every section value the table can hold", () => {
    fc.assert(
      fc.property(values, (v) => {
        const text = renderValues(v);
        expect(parseCheckpoint(text).values).toEqual(v);
        expect(renderValues(parseCheckpoint(text).values)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it("every checkpoint the writers render re-renders byte for byte from what was read", () => {
    fc.assert(
      fc.property(checkpointData, fc.boolean(), (d, model) => {
        for (const text of [
          renderCheckpoint({ ...d, modelDocument: model }, asciiBody).text,
          renderSkeletonCheckpoint(d),
        ])
          expect(renderValues(parseCheckpoint(text).values)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it("and so does PreCompact's checkpoint of every real fixture session", () => {
    const dir = path.resolve(import.meta.dirname, "../../fixtures/transcripts");
    const home = "/home/USER";
    const root = `${home}/proj`;
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".jsonl"))) {
      const transcript = `${home}/.claude/projects/-home-USER-proj/${file}`;
      const deps = fakeDeps({
        home,
        cwd: root,
        files: {
          [`${root}/.git/HEAD`]: "ref: refs/heads/x\n",
          [transcript]: readFileSync(path.join(dir, file), "utf8"),
        },
      });
      const out = runPreCompact(deps, {
        hook_event_name: "PreCompact",
        session_id: file.replace(/\.jsonl$/, ""),
        transcript_path: transcript,
        cwd: root,
        trigger: "auto",
      });
      if (!out.saved) throw new Error(out.reason);
      const text = deps.fs.readFileSync(out.result.checkpoint, "utf8") as string;
      expect(renderValues(parseCheckpoint(text).values), file).toBe(text);
    }
  });

  it("the model's cut counts read back from the file equal what the fit reported", () => {
    const long = Array.from({ length: 80 }, (_, i) => `decision ${i} ${"d".repeat(60)}`).join("\n");
    const { text, cuts } = renderCheckpoint(
      { ...base, decisions: long, modelDocument: true },
      asciiBody,
    );
    expect(cuts.decisions).toBeGreaterThan(0);
    expect(parseCheckpoint(text).cuts).toEqual(cuts);
  });
});

describe("the section table", () => {
  it("names each section once, and every model field has a cut rank of its own", () => {
    const titles = SECTION_KEYS.map((k) => SECTIONS[k].title.toLowerCase());
    expect(new Set(titles).size).toBe(titles.length);
    const ranks = SECTION_KEYS.flatMap((k) => (SECTIONS[k].cut ? [SECTIONS[k].cut!.rank] : []));
    expect(new Set(ranks).size).toBe(ranks.length);
    expect(ranks).toHaveLength(7);
  });

  it("reads quoin's own root checkpoint file (a different dialect) without re-rendering it", () => {
    const file = path.resolve(
      import.meta.dirname,
      "../../fixtures/quoin/project/.claude-checkpoint.7f3e9a10-5b2.md",
    );
    const p = parseCheckpoint(readFileSync(file, "utf8"));
    expect(p.nextUp).toEqual([{ item: "T-14:", prerequisitesMet: true }]);
    expect(p.commits.map((c) => c.hash)).toEqual(["a1b2c3d"]);
    expect(p.blockers).toEqual([]);
  });
});
