import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../cli/run-cli.ts";
import { restoreCommand } from "../../../cli/commands/restore.ts";
import { runPreCompact } from "../../../lib/hooks/pre-compact.ts";
import { cutAtCompaction } from "../../helpers/summary-oracle.ts";
import { fakeDeps } from "../../helpers/memfs-deps.ts";
import { MemoryFixture, ROOT } from "../../helpers/memory-fixture.ts";
import { briefRepeats } from "../../helpers/brief-repeats.ts";

// The brief of the automatic checkpoint of spotter-4d5611e5 cut before its compaction, with the
// session's seven files uncommitted (as the real-model play replayed them): each path said once,
// the files to re-read led by the uncommitted ones with the most edited among them, no empty
// artifacts line, the model's plan whole.

const SID = "4d5611e5-241a-462a-8d15-5122611a9569";
const CUR = "cccc0000-0000-0000-0000-000000000001";
const FIXTURE = path.resolve(
  import.meta.dirname,
  `../../fixtures/transcripts/spotter-${SID}.jsonl`,
);
const UNCOMMITTED = [
  ["lib/spotter_web/components/transcript_components.ex", "untracked"],
  ["lib/spotter_web/live/transcript_computers.ex", "untracked"],
  ["test/spotter/services/transcript_renderer_test.exs", "modified"],
  ["lib/spotter/services/transcript_renderer.ex", "modified"],
  ["test/spotter_web/live/subagent_live_test.exs", "untracked"],
  ["lib/spotter_web/live/subagent_live.ex", "modified"],
  ["lib/spotter_web/live/session_live.ex", "modified"],
] as const;

/** The files' sizes in the play's worktree (spotter at e67e02f with the session's edits replayed). */
const SIZES: Record<string, number> = {
  "lib/spotter_web/components/transcript_components.ex": 7448,
  "lib/spotter_web/live/transcript_computers.ex": 1619,
  "lib/spotter_web/live/session_live.ex": 22942,
  "lib/spotter/services/transcript_renderer.ex": 18718,
  "test/spotter/services/transcript_renderer_test.exs": 33728,
  "test/spotter_web/live/subagent_live_test.exs": 6384,
  "lib/spotter_web/live/subagent_live.ex": 8870,
  "priv/static/assets/spotter.css": 24091,
  "assets/js/app.js": 11028,
};

/** PreCompact's checkpoint of the cut transcript, written for the project at ROOT. */
function precompactText(): string {
  const lines = readFileSync(FIXTURE, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
  const before = cutAtCompaction(lines).before.map((l) =>
    l.replaceAll("/home/USER/projects/spotter-worktrees/spotter-dov", ROOT),
  );
  const transcript = `/home/dev/.claude/projects/-home-dev-proj/${SID}.jsonl`;
  const deps = fakeDeps({
    home: "/home/dev",
    cwd: ROOT,
    files: {
      [`${ROOT}/.git/HEAD`]: "ref: refs/heads/spotter-dov\n",
      [transcript]: `${before.join("\n")}\n`,
    },
  });
  const out = runPreCompact(deps, {
    hook_event_name: "PreCompact",
    session_id: SID,
    transcript_path: transcript,
    cwd: ROOT,
    trigger: "auto",
  });
  if (!out.saved) throw new Error(out.reason);
  const text = deps.fs.readFileSync(out.result.checkpoint, "utf8") as string;
  // git's list of the session's uncommitted files, as a save that ran git writes it
  const uncommitted = UNCOMMITTED.map(([p, k]) => `- ${p} (${k})`).join("\n");
  return text.replace(/\n## Uncommitted\n[\s\S]*?\n\n/, `\n## Uncommitted\n${uncommitted}\n\n`);
}

function restored() {
  const f = new MemoryFixture();
  const file = f.write(
    `${f.paths.checkpoints}/2026-11-29-spotter-dov-precompact.md`,
    precompactText(),
    0.01,
  );
  // each file at its size in the replayed worktree
  for (const [p, bytes] of Object.entries(SIZES)) f.write(path.join(ROOT, p), "x".repeat(bytes));
  f.sentinel(CUR, file);
  let out = "";
  runCli(
    ["restore", "--json", "--session", CUR],
    f.deps(),
    { stdout: (t) => (out += t), stderr: () => {}, readStdin: () => "" },
    [restoreCommand],
  );
  return { bytes: Buffer.byteLength(out), j: JSON.parse(out) };
}

describe("the brief of spotter-4d5611e5's automatic checkpoint", () => {
  const { bytes, j } = restored();
  const show: string[] = j.show;
  const text = show.join("\n");

  it("re-reads the item's files, then the files the model's plan names (app.js, spotter.css), then the other uncommitted ones", () => {
    const rel = (j.reread as string[]).map((p) => path.relative(ROOT, p));
    // the item in progress (dov.3's two files), then the four others Claude Code's own compaction
    // summary names, in the order the last words name them
    expect(rel.slice(0, 2)).toEqual([
      "lib/spotter_web/components/transcript_components.ex",
      "lib/spotter_web/live/transcript_computers.ex",
    ]);
    expect(rel.slice(2, 6)).toEqual([
      "assets/js/app.js",
      "lib/spotter_web/live/session_live.ex",
      "lib/spotter_web/live/subagent_live.ex",
      "priv/static/assets/spotter.css",
    ]);
    expect(rel).toHaveLength(8);
    expect(rel[6]).toBe("lib/spotter/services/transcript_renderer.ex");
  });

  it("gives each file to re-read its size and names the large ones to skim", () => {
    const rel = (j.reread as string[]).map((p) => path.relative(ROOT, p));
    expect(j.rereadBytes).toEqual(rel.map((p) => SIZES[p]));
    const step: string = j.next[0];
    expect(step).toBe(
      "Read each file in `reread` now (8, 128 KB; `rereadBytes` has each size: skim those over 16 KB).",
    );
  });

  it("says each uncommitted path once, with no empty artifacts line, within 8 KB", () => {
    // (the state line names the files of the last edit: another fact)
    const listed = show.filter((l) => !l.startsWith("State of the last edit: ")).join("\n");
    for (const [p] of UNCOMMITTED) expect(listed.split(p).length - 1, `${p} in show`).toBe(1);
    expect(text).toMatch(/lib\/spotter_web\/live\/session_live\.ex \(\w+, edited 11 times\)/);
    expect(text).not.toContain("In-flight artifacts");
    expect(bytes).toBeLessThanOrEqual(8192);
  });

  it("says each fact once: no field's text inside a show line, no show line twice", () => {
    expect(briefRepeats(j)).toEqual([]);
  });

  it("keeps the model's plan whole, what the closed item did, and the state of the last edit", () => {
    expect(text).toContain("6. **spotter.css** - add debug grid and expand control styles");
    expect(text).toContain("397 tests pass, including 10 new SubagentLive tests.");
    expect(show.find((l) => l.startsWith("State of the last edit: "))).toContain(
      "no build or test command ran since: their state is unverified; run mix compile / mix test / mix credo first; PostToolUse hooks (post-edit-check.js, post-write-eslint.js, +4 more) ran after the edit",
    );
    // carrying on starts with the checks the session ran
    expect(j.next.at(-1)).toContain("Restate the last edit's state");
    expect(j.next.at(-1)).toContain(
      'AskUserQuestion "What next?": "Carry on: run mix compile / mix test / mix credo first" / "Read the whole checkpoint file first" / "Something else".',
    );
  });
});

describe("spotter-4d5611e5's automatic checkpoint", () => {
  const text = precompactText();
  const section = (title: string) =>
    new RegExp(`\\n## ${title}\\n([\\s\\S]*?)(?:\\n\\n|$)`).exec(text)?.[1] ?? "";

  it("says the session made no commits but closed two work items, instead of a bare (none)", () => {
    expect(section("Completed this session")).toBe(
      "(no commits this session; 2 work items closed: see ## Progress)",
    );
    // the closes themselves are said once, in ## Progress
    expect(section("Progress")).toContain("$ bd close spotter-dov.1");
    expect(section("Progress")).toContain("$ bd close spotter-dov.2");
  });

  it("marks only dov.3's files in progress; the files of the closed dov.2 were edited earlier", () => {
    const readFirst = section("Read first");
    expect(readFirst.match(/\(in progress\)/g)).toHaveLength(2);
    expect(readFirst).not.toMatch(/transcript_renderer(_test)?\.exs? \(in progress\)/);
  });

  it("counts the files to read it does not list as the working set holds them", () => {
    const readFirst = section("Read first");
    const listed = readFirst.split("\n").filter((l) => l.startsWith("- "));
    const m = /^\+(\d+) more files to read \((\d+) changed, (\d+) only read\)$/m.exec(readFirst);
    expect(m).not.toBeNull();
    const [, more, changed, read] = m!.map(Number) as [number, number, number, number];
    expect(changed + read).toBe(more);
    const ws = section("Working set");
    const changedN = ws.split("Read (newest first):")[0]!.match(/^- /gm)?.length ?? 0;
    const readN = ws.split("Read (newest first):")[1]!.match(/^- /gm)?.length ?? 0;
    const listedChanged = listed.filter((l) =>
      /\((in progress|edited earlier this session|committed)\)$/.test(l),
    ).length;
    expect(listedChanged + changed).toBe(changedN);
    expect(listed.length - listedChanged + read).toBe(readN);
  });
});
