import { describe, expect, it } from "vitest";
import { readCompactSummary } from "../../../lib/context/compact-summary-read.ts";
import { droppedSinceCompaction, reentryDigest } from "../../../lib/hooks/compact-reentry.ts";
import { handleSessionStart } from "../../../lib/hooks/session-start.ts";
import { handleUserPromptSubmit } from "../../../lib/hooks/user-prompt-submit.ts";
import {
  PROMPT_FULL_HEAD,
  PROMPT_REENTRY_HEAD,
  REENTRY_FOLLOWS,
} from "../../../lib/notes/reentry-note.ts";
import { keptBySummary, pathKept } from "../../../lib/hooks/summary-kept.ts";
import { readKnobs } from "../../../lib/core/knobs.ts";
import { parseCheckpoint } from "../../../lib/store/checkpoint-parse.ts";
import { projectMemory } from "../../../lib/store/project-root.ts";
import {
  BOUNDARY_AT,
  beforeCompaction,
  contextOf,
  savedByPreCompact,
  SPOTTER,
  spotterCompactStart,
  spotterDeps,
  spotterPrompt,
  spotterRaw as raw,
  spotterSummary as summaryText,
} from "../../helpers/spotter-compaction.ts";

// Re-injecting only what the client's summary lacks (the rest the model already has), measured on
// the real session spotter-4d5611e5: PreCompact saves from the transcript cut just before its
// compaction; SessionStart(compact) then reads the summary the model wrote after the
// compact_boundary and re-injects only the checkpoint's paths, requests and todos that summary
// lacks, plus the newest changed file, with one line saying how much it kept.

const { sid: SID, home: HOME, root: ROOT, transcript: TRANSCRIPT } = SPOTTER;
const savedJustBefore = new Date(Date.parse(BOUNDARY_AT) - 5000).toISOString();

function compacted() {
  const deps = spotterDeps({ transcript: beforeCompaction, now: savedJustBefore });
  const out = savedByPreCompact(deps);
  // The compaction happens: the boundary, the summary and the rest of the session follow.
  deps.fs.writeFileSync(TRANSCRIPT, raw);
  const parsed = parseCheckpoint(deps.fs.readFileSync(out.result.checkpoint, "utf8") as string);
  return {
    deps,
    checkpoint: out.result.checkpoint,
    digest: parsed.digest,
    fullList: new Set([...out.digest!.changed, ...out.digest!.read].map((f) => f.path)).size,
  };
}

describe("readCompactSummary", () => {
  it("reads the summary after the newest compact_boundary from the tail, and null without one", () => {
    const { deps } = compacted();
    expect(readCompactSummary(deps.fs, TRANSCRIPT)?.text).toBe(summaryText);
    deps.fs.writeFileSync(TRANSCRIPT, beforeCompaction);
    expect(readCompactSummary(deps.fs, TRANSCRIPT)).toBeNull();
    expect(readCompactSummary(deps.fs, "/nowhere.jsonl")).toBeNull();
  });
});

describe("pathKept", () => {
  it.each([
    ["see lib/a/b.ex now", "lib/a/b.ex", true],
    ["at /root/lib/a/b.ex.", "lib/a/b.ex", true],
    ["only b.ex here", "lib/a/b.ex", false],
    ["xlib/a/b.ex", "lib/a/b.ex", false],
    ["lib/a/b.exs", "lib/a/b.ex", false],
  ])("%j holds %j: %s", (summary, p, kept) => expect(pathKept(summary, p)).toBe(kept));
});

describe("the post-compaction note on spotter-4d5611e5 carries only what the summary dropped", () => {
  const { deps, checkpoint, digest, fullList } = compacted();
  const paths = projectMemory({ fs: deps.fs, home: HOME }, ROOT)!;
  const report = keptBySummary(summaryText, digest);
  const note = reentryDigest(deps, paths, SID, undefined, TRANSCRIPT)!;
  const full = reentryDigest(deps, paths, SID)!;
  const all = report.paths.all.length;
  const dropped = report.paths.dropped.length;
  const kept = all - dropped;
  const droppedLine = note.split("\n").find((l) => l.startsWith("Paths it dropped: ")) ?? "";
  const shownDropped = report.paths.dropped.filter((p) => pathKept(note, p));

  it("says how much the summary kept, and leaves out every path it kept", () => {
    console.log(
      `spotter-4d5611e5: digest ${fullList} paths, checkpoint lists ${all} (${digest.changed.length} changed, ${digest.read.length} read); the summary kept ${kept} whole; the note re-injects ${shownDropped.length} of the ${dropped} it dropped (${note.length} chars; the full note was ${full.length}); requests kept ${report.requests.all.length - report.requests.dropped.length} of ${report.requests.all.length}, todos ${report.todos.all.length - report.todos.dropped.length} of ${report.todos.all.length}`,
    );
    expect(all).toBeGreaterThan(10);
    expect(all).toBe(fullList);
    // The measured figures (docs/hooks.md, "Around a compaction"): the summary kept 10 of 13 paths.
    expect([kept, all, shownDropped.length]).toEqual([10, 13, 3]);
    expect(note).toContain(`Saved before the compaction: ${checkpoint}`);
    expect(note).toContain(`The summary kept ${kept} of ${all} paths`);
    for (const p of report.paths.all.filter((x) => !report.paths.dropped.includes(x)))
      if (p !== digest.changed[0]?.path) expect(droppedLine, p).not.toContain(p);
    expect(note).toContain(`Newest changed file: ${digest.changed[0]!.path}`);
  });

  it("re-injects the dropped paths it has room for and counts the rest", () => {
    const rest = report.paths.dropped.filter((p) => p !== digest.changed[0]?.path);
    const listed = rest.filter((p) => pathKept(droppedLine, p)).length;
    expect(listed).toBeGreaterThan(0);
    if (listed < rest.length) expect(droppedLine).toContain(`+${rest.length - listed} more`);
  });

  it("droppedSinceCompaction gives the same note once the summary is there, and null before", () => {
    expect(droppedSinceCompaction(deps, paths, SID, TRANSCRIPT)).toBe(note);
    const early = compacted();
    early.deps.fs.writeFileSync(TRANSCRIPT, beforeCompaction);
    const earlyPaths = projectMemory({ fs: early.deps.fs, home: HOME }, ROOT)!;
    expect(droppedSinceCompaction(early.deps, earlyPaths, SID, TRANSCRIPT)).toBeNull();
    expect(reentryDigest(early.deps, earlyPaths, SID, undefined, TRANSCRIPT)).toContain(
      "Newest changed files: ",
    );
  });

  it("takes no summary from an earlier compaction: one not newer than the previous SessionStart(compact), or older than the checkpoint", () => {
    // compacted_at has whole seconds: a boundary in that same second is the previous one's.
    const sameSecond = `${BOUNDARY_AT.slice(0, 19)}Z`;
    expect(reentryDigest(deps, paths, SID, undefined, TRANSCRIPT, sameSecond)).toBe(full);
    const earlier = new Date(Date.parse(sameSecond) - 1000).toISOString();
    expect(reentryDigest(deps, paths, SID, undefined, TRANSCRIPT, earlier)).toBe(note);
    const stale = compacted();
    stale.deps.setNow(new Date(Date.parse(BOUNDARY_AT) + 60_000).toISOString());
    // a newer checkpoint of this session, saved after that boundary: the summary is not its own
    const p2 = projectMemory({ fs: stale.deps.fs, home: HOME }, ROOT)!;
    const text = stale.deps.fs.readFileSync(stale.checkpoint, "utf8") as string;
    const newer = stale.checkpoint.replace("-precompact.md", "-precompact-2.md");
    stale.deps.fs.writeFileSync(
      newer,
      text.replace(
        /## Saved at\n.*\n/,
        `## Saved at\n${new Date(Date.parse(BOUNDARY_AT) + 60_000).toISOString()}\n`,
      ),
    );
    expect(reentryDigest(stale.deps, p2, SID, undefined, TRANSCRIPT)).not.toContain(
      "The summary kept",
    );
  });

  it("keeps the whole SessionStart(compact) answer under 2,000 characters", () => {
    const ctx = contextOf(
      handleSessionStart(
        deps,
        spotterCompactStart,
        readKnobs({}, () => {}),
      ),
    );
    expect(ctx).toContain("The summary kept");
    expect(ctx.length).toBeLessThan(2000);
  });
});

describe("the first prompt after the compaction of spotter-4d5611e5 carries what the summary dropped, once", () => {
  const knobs = readKnobs({}, () => {});
  const sessionStart = (deps: ReturnType<typeof compacted>["deps"]) =>
    contextOf(handleSessionStart(deps, spotterCompactStart, knobs));
  const prompt = (deps: ReturnType<typeof compacted>["deps"], text = "continue") =>
    contextOf(handleUserPromptSubmit(deps, spotterPrompt(text), knobs));
  /** As the real clients do it: SessionStart(compact) runs, then the boundary and summary are written. */
  function asTheClientDoes() {
    const c = compacted();
    c.deps.fs.writeFileSync(TRANSCRIPT, beforeCompaction);
    // 2.1.332 writes the boundary a few ms after SessionStart(compact): within its second
    c.deps.setNow(`${BOUNDARY_AT.slice(0, 19)}Z`);
    const start = sessionStart(c.deps);
    c.deps.fs.writeFileSync(TRANSCRIPT, raw);
    c.deps.setNow(new Date(Date.parse(BOUNDARY_AT) + 30_000).toISOString());
    return { ...c, start };
  }

  it("SessionStart(compact) names the checkpoint and says the list follows; the prompt carries only the dropped paths, with how much the summary kept", () => {
    const { deps, checkpoint, digest, start } = asTheClientDoes();
    expect(start).toContain(`Saved before the compaction: ${checkpoint}`);
    expect(start).toContain(REENTRY_FOLLOWS);
    expect(start).not.toContain("Newest changed files");
    const ctx = prompt(deps);
    const report = keptBySummary(summaryText, digest);
    console.log(
      `spotter-4d5611e5 first prompt after the compaction: ${ctx.length} chars; SessionStart(compact) ${start.length} chars`,
    );
    expect(ctx.startsWith(PROMPT_REENTRY_HEAD)).toBe(true);
    expect(ctx).toContain(`Saved before the compaction: ${checkpoint}`);
    expect(ctx).toContain("The summary kept 10 of 13 paths");
    expect(ctx).toContain(`Newest changed file: ${digest.changed[0]!.path}`);
    const droppedLine = ctx.split("\n").find((l) => l.startsWith("Paths it dropped: ")) ?? "";
    for (const p of report.paths.all.filter((x) => !report.paths.dropped.includes(x)))
      expect(droppedLine, p).not.toContain(p);
    for (const p of report.paths.dropped.filter((x) => x !== digest.changed[0]?.path))
      expect(pathKept(droppedLine, p), p).toBe(true);
    expect(ctx.length).toBeLessThan(2000);
    expect(/^[\x20-\x7e\n]*$/.test(ctx)).toBe(true);
    // once: the sentinel is consumed, the next prompt carries nothing of it
    expect(prompt(deps, "and then?")).not.toContain("Saved before the compaction");
  });

  it("when the summary is already there at SessionStart(compact), that note carries the dropped list and the prompt adds nothing", () => {
    const { deps } = compacted();
    deps.setNow(new Date(Date.parse(BOUNDARY_AT) + 1000).toISOString());
    expect(sessionStart(deps)).toContain("The summary kept 10 of 13 paths");
    expect(prompt(deps)).not.toContain("Saved before the compaction");
  });

  it("after a second compaction whose summary is not in the tail yet, the prompt carries the full list, not the first one's", () => {
    const { deps } = asTheClientDoes();
    expect(prompt(deps)).toContain("The summary kept 10 of 13 paths");
    // a second /compact a minute later: the newest boundary in the tail is still the first one's
    deps.setNow(new Date(Date.parse(BOUNDARY_AT) + 60_000).toISOString());
    expect(sessionStart(deps)).toContain(REENTRY_FOLLOWS);
    const ctx = prompt(deps);
    expect(ctx.startsWith(PROMPT_FULL_HEAD)).toBe(true);
    expect(ctx).toContain("Newest changed files: ");
    expect(ctx).not.toContain("The summary kept");
  });
});
