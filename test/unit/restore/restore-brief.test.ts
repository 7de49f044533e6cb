import { describe, expect, it } from "vitest";
import { runCli } from "../../../cli/run-cli.ts";
import { restoreCommand } from "../../../cli/commands/restore.ts";
import { checkpointKindLine } from "../../../lib/restore/checkpoint-kind-line.ts";
import { parseCheckpoint, type ParsedCheckpoint } from "../../../lib/store/checkpoint-parse.ts";
import { parseCommitBullet } from "../../../lib/store/checkpoint-handover-lines.ts";
import { kindOf } from "../../../lib/store/checkpoint-status.ts";
import {
  fixedBody,
  storedFix,
  storedWorkItems,
  workItemsBody,
} from "../../../lib/store/checkpoint-lessons.ts";

const checkpointKind = (status: string | undefined) => checkpointKindLine(kindOf(status));
/** The handover sections of a parsed checkpoint, as restore reads them. */
const parseHandover = (p: ParsedCheckpoint) => ({
  head: p.head,
  lastWords: p.digest.lastWords ?? [],
  progress: p.digest.progress ?? [],
  uncommitted: p.uncommitted ?? undefined,
});
/** A commit bullet's subject without the writer's marks, and what they said. */
function commitMarks(subject: string) {
  const c = parseCommitBullet(`0000000 ${subject}`)!;
  return {
    subject: c.subject,
    subagent: c.subagent === true,
    rebasedFrom: c.state === "rebased" ? (c.oldHash ?? null) : null,
    notInClone: c.state === "missing",
  };
}
import { summarizeStatus, statusKind } from "../../../lib/restore/status-summary.ts";
import { MemoryFixture } from "../../helpers/memory-fixture.ts";
import { briefRepeats } from "../../helpers/brief-repeats.ts";

// restore answers in a bounded brief (the model reads all of it) that says the checkpoint's kind
// and gives the question's options in `next`.
const CUR = "cccc0000-0000-0000-0000-000000000001";

function restoreJson(f: MemoryFixture, argv: string[] = []) {
  let out = "";
  runCli(
    ["restore", "--json", "--session", CUR, ...argv],
    f.deps(),
    { stdout: (t) => (out += t), stderr: () => {}, readStdin: () => "" },
    [restoreCommand],
  );
  return { bytes: Buffer.byteLength(out), j: JSON.parse(out) };
}

describe("the kind of checkpoint", () => {
  it("an automatic checkpoint (PreCompact, forced save, session end) says it holds no notes of the model", () => {
    for (const [status, why] of [
      ["checkpoint save (precompact, auto trigger)", "PreCompact"],
      ["checkpoint save (forced: context at the block tier)", "forced save"],
      ["checkpoint save (session end, logout)", "session end"],
    ]) {
      expect(checkpointKind(status)).toEqual({
        kind: "automatic",
        line: `Checkpoint kind: automatic (${why}): no notes of the model; the last words and commits are the record.`,
      });
    }
  });

  it("a /checkpoint save is curated", () => {
    expect(checkpointKind("checkpoint save (voluntary)").kind).toBe("curated");
    expect(checkpointKind("curated").kind).toBe("curated");
  });

  it("the brief's first lines say the kind and name the checkpoint file to read for more", () => {
    const f = new MemoryFixture();
    const file = f.checkpoint("2026-11-29T1100-alpha.md", {
      task: "alpha",
      ageDays: 0.01,
      skeleton: true,
      extra: { status: "checkpoint save (precompact, auto trigger)" },
    });
    f.sentinel(CUR, file);
    const show: string[] = restoreJson(f).j.show;
    expect(show[0]).toContain("Checkpoint kind: automatic (PreCompact)");
    expect(show.find((l) => l.startsWith("From: "))).toContain(
      `${file} (saved 2026-11-29T11:45:36Z); read it for more than this brief.`,
    );
  });
});

describe("next gives the question's options", () => {
  it("a finished restore: carry on with the next step, look at the drift, read the file, something else", () => {
    const f = new MemoryFixture();
    f.sentinel(
      CUR,
      f.checkpoint("2026-11-29T1100-alpha.md", {
        task: "alpha",
        ageDays: 0.01,
        extra: { nextUp: [{ item: "T-4 wire up", prerequisitesMet: true }] },
      }),
    );
    expect(restoreJson(f).j.next.at(-1)).toBe(
      'Ask the user what to do next: AskUserQuestion "What next?": "Carry on: T-4 wire up" / "Read the whole checkpoint file first" / "Something else".',
    );
  });

  it("an option is cut between words only: a long next step with a path across the cut", () => {
    const item =
      "Finish the quoting in src/export/csv-writer-with-a-long-name.ts so fields with commas are quoted as RFC 4180 says";
    const f = new MemoryFixture();
    f.sentinel(
      CUR,
      f.checkpoint("2026-11-29T1100-alpha.md", {
        task: "alpha",
        ageDays: 0.01,
        extra: { nextUp: [{ item, prerequisitesMet: true }] },
      }),
    );
    const ask: string = restoreJson(f).j.next.at(-1);
    const options = [...ask.slice(ask.indexOf('"What next?":')).matchAll(/"([^"]*)"/g)]
      .map((m) => m[1]!)
      .slice(1);
    const carry = options[0]!;
    expect(carry.endsWith("...")).toBe(true);
    const kept = carry.slice("Carry on: ".length, -3);
    expect(item.startsWith(kept)).toBe(true);
    expect(item.charAt(kept.length)).toBe(" ");
    expect(options.slice(1)).toEqual(["Read the whole checkpoint file first", "Something else"]);
  });

  it("the picker: the newest candidates as options, then skip", () => {
    const f = new MemoryFixture();
    f.sentinel("s-1", f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 }));
    f.sentinel("s-2", f.checkpoint("2026-11-29T1000-beta.md", { task: "beta", ageDays: 0.02 }));
    const next: string = restoreJson(f).j.next[0];
    expect(next).toContain(
      'AskUserQuestion "Which checkpoint to restore?": "1. alpha (main, saved',
    );
    expect(next).toContain('"2. beta (main, saved');
    expect(next).toContain('/ "Skip"');
  });

  it("the replay question: all, none, some or edit one", () => {
    const f = new MemoryFixture();
    f.sentinel(CUR, f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 }));
    f.prompt(CUR, "=== BLOCKED PROMPT [2026-11-29T10:00:00Z] ===\nfirst prompt\n", 0.01);
    const { j } = restoreJson(f);
    const next: string = j.next[0];
    expect(next).toContain("(the menu in `show`)");
    expect(j.show).toContain("  1. [2026-11-29T10:00:00Z] first prompt");
    // the menu and the previews are said once, in show
    expect(j.pendingPrompts).not.toHaveProperty("menu");
    expect(briefRepeats(j)).toEqual([]);
    expect(next).toContain('"All" (`--replay all`');
    expect(next).toContain('"None" (`--replay none`)');
    expect(next).toContain('"Some or edit one"');
  });
});

describe("the brief's bounds", () => {
  it("a long model document is cut to 8 KB with a count and the file to read; held prompts are not cut", () => {
    const f = new MemoryFixture();
    const long = (i: number) => `item ${i} ${"word ".repeat(60)}`;
    const file = f.checkpoint("2026-11-29T1100-alpha.md", {
      task: "alpha",
      ageDays: 0.01,
      extra: {
        done: Array.from({ length: 40 }, (_, i) => long(i)),
        nextUp: Array.from({ length: 40 }, (_, i) => ({ item: long(i), prerequisitesMet: true })),
        decisions: Array.from({ length: 40 }, (_, i) => `- ${long(i)}`).join("\n"),
        inProgress: "y".repeat(5000),
      },
    });
    // A save cuts the model's fields to 6 KB; a checkpoint edited by hand, or written before that
    // cap, can be any size: the brief still fits 8 KB.
    const saved = f.fs.readFileSync(file, "utf8") as string;
    const bullets = Array.from({ length: 40 }, (_, i) => `- ${long(i)}`).join("\n");
    const grown = [
      "In progress",
      "Decisions made",
      "Done this session",
      "Next up",
      "Open questions",
    ].reduce(
      (text, title) =>
        text.replace(new RegExp(`## ${title}\\n[^#]*`), `## ${title}\n${bullets}\n\n`),
      saved,
    );
    expect(grown.length).toBeGreaterThan(12_000);
    f.write(file, grown, 0.01);
    f.sentinel(CUR, file);
    const held = "z".repeat(20_000);
    f.prompt(CUR, `=== BLOCKED PROMPT [2026-11-29T10:00:00Z] ===\n${held}\n`, 0.01);
    const { bytes, j } = restoreJson(f, ["--replay", "all"]);
    expect(j.replay.prompts[0].text).toBe(held);
    expect(j.show).toContain(held);
    // everything but the held prompts (their show line, pendingPrompts and replay) within 8 KB
    const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
    expect(bytes - size(held) - size(j.pendingPrompts) - size(j.replay)).toBeLessThanOrEqual(8192);
    expect(j.show.join("\n")).toMatch(
      new RegExp(`brief cut to 8192 bytes: \\d+ more line\\(s\\); read ${file} for the rest`),
    );
  });

  it("git status: counts by kind, the working set first, at most 20", () => {
    expect(["?? a", " M b", "A  c", " D d", "R  e -> f", "UU g"].map(statusKind)).toEqual([
      "untracked",
      "modified",
      "added",
      "deleted",
      "renamed",
      "conflicted",
    ]);
    const lines = [...Array.from({ length: 30 }, (_, i) => `?? x${i}`), " M mine.ts"];
    const s = summarizeStatus(lines, new Set(["mine.ts"]));
    expect(s).toMatchObject({ total: 31, counts: { modified: 1, untracked: 30 } });
    expect(s.entries).toHaveLength(20);
    expect(s.entries[0]).toBe(" M mine.ts");
  });
});

describe("the handover sections as restore reads them", () => {
  it("reads ## Head, ## Last words and ## Uncommitted; an older checkpoint reads as not recorded", () => {
    const sha = "0123456789abcdef0123456789abcdef01234567";
    const h = parseHandover(
      parseCheckpoint(
        `## Active task\nx\n\n## Head\n${sha}\n\n## Last words\n- 2026-12-01T10:04Z Now gqc.6: close project review session.\n\n## Uncommitted\n- lib/a b.ts (modified)\n- new.ts (untracked)\n`,
      ),
    );
    expect(h).toEqual({
      head: sha,
      lastWords: [{ at: "2026-12-01T10:04Z", text: "Now gqc.6: close project review session." }],
      progress: [],
      uncommitted: [
        { path: "lib/a b.ts", kind: "modified" },
        { path: "new.ts", kind: "untracked" },
      ],
    });
    expect(parseHandover(parseCheckpoint("## Active task\nx\n"))).toEqual({
      head: undefined,
      lastWords: [],
      progress: [],
      uncommitted: undefined,
    });
    expect(parseHandover(parseCheckpoint("## Head\n(none)\n")).head).toBeNull();
  });

  it("strips the writer's marks from a commit subject", () => {
    expect(commitMarks("close review (rebased from 99b497c) [subagent]")).toEqual({
      subject: "close review",
      subagent: true,
      rebasedFrom: "99b497c",
      notInClone: false,
    });
    expect(commitMarks("gone (not in this clone)").notInClone).toBe(true);
  });
});

describe("the work items and the fixes in the brief", () => {
  const desc = `Why This Task Is Necessary: ${"the shared transcript needs a debug sidecar ".repeat(12)}`;
  function withHandover() {
    const f = new MemoryFixture();
    const file = f.checkpoint("2026-11-29T1100-alpha.md", {
      task: "alpha",
      ageDays: 0.01,
      skeleton: true,
      extra: { status: "checkpoint save (precompact, auto trigger)" },
    });
    // the two sections as the renderer writes them (the section table's own bodies)
    const work = workItemsBody({
      current: storedWorkItems({
        current: {
          id: "spotter-dov.3",
          title: "Implement debug JSON sidecar",
          text: desc,
          how: "bd update spotter-dov.3 --status in_progress",
        },
        open: [],
      }).current,
      open: Array.from({ length: 7 }, (_, i) => ({
        id: `spotter-dov.${i + 4}`,
        title: `item ${i}`,
      })),
      more: 2,
    });
    const fix = (n: number) =>
      storedFix({
        command: `npm test ${n}`,
        error: "1 failing",
        at: null,
        fixedAt: "2026-11-29T10:00:00Z",
        fixedBy: `npm test ${n}`,
        explanation: "the fixture was stale",
      });
    const fixed = fixedBody({ items: [fix(1), fix(2), fix(3), fix(4)], more: 1 });
    const text = f.fs.readFileSync(file, "utf8") as string;
    f.write(
      file,
      `${text.trimEnd()}\n\n## Work items\n${work}\n\n## Fixed along the way\n${fixed}\n`,
      0.01,
    );
    f.sentinel(CUR, file);
    return f;
  }

  it("names the item in progress with its id, title, description head and how it was taken up; the open items; the fixes", () => {
    const show: string[] = restoreJson(withHandover()).j.show;
    const now = show.find((l) => l.startsWith("Work item in progress: "));
    expect(now).toContain("[spotter-dov.3] Implement debug JSON sidecar");
    expect(now).toContain("Why This Task Is Necessary");
    expect(now).toContain("taken up by: bd update spotter-dov.3 --status in_progress");
    expect(now!.length).toBeLessThan(600);
    const open = show.find((l) => l.startsWith("Open work items: "));
    expect(open).toBe(
      "Open work items: [spotter-dov.4] item 0; [spotter-dov.5] item 1; [spotter-dov.6] item 2; [spotter-dov.7] item 3; [spotter-dov.8] item 4; +4 more",
    );
    const fixes = show.filter((l) => l.startsWith("Fixed along the way: "));
    expect(fixes).toHaveLength(3);
    expect(fixes[0]).toContain("`npm test 1`: 1 failing");
    expect(fixes[0]).toContain("the fixture was stale");
    expect(fixes[0]).toContain("by `npm test 1`)");
    expect(show.indexOf(now!)).toBeLessThan(show.indexOf(fixes[0]!));
  });
});
