import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../cli/run-cli.ts";
import { restoreCommand } from "../../../cli/commands/restore.ts";
import { runPreCompact } from "../../../lib/hooks/pre-compact.ts";
import { cutAtCompaction } from "../../helpers/summary-oracle.ts";
import { fakeDeps } from "../../helpers/memfs-deps.ts";
import { MemoryFixture, ROOT } from "../../helpers/memory-fixture.ts";

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
  return text.replace("\n## Last words\n", `\n## Uncommitted\n${uncommitted}\n\n## Last words\n`);
}

function restored() {
  const f = new MemoryFixture();
  const file = f.write(
    `${f.paths.checkpoints}/2026-11-29-spotter-dov-precompact.md`,
    precompactText(),
    0.01,
  );
  for (const [p] of UNCOMMITTED) f.write(path.join(ROOT, p), "x\n");
  f.write(path.join(ROOT, "priv/static/assets/spotter.css"), "x\n");
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

  it("re-reads the uncommitted files first: the file in progress, then the most edited (session_live.ex, 11 edits)", () => {
    const rel = (j.reread as string[]).map((p) => path.relative(ROOT, p));
    expect(rel.slice(0, 3)).toEqual([
      "lib/spotter_web/components/transcript_components.ex",
      "lib/spotter_web/live/transcript_computers.ex",
      "lib/spotter_web/live/session_live.ex",
    ]);
    expect(new Set(rel.slice(0, 7))).toEqual(new Set(UNCOMMITTED.map(([p]) => p)));
    // then what was read right before the last edits
    expect(rel[7]).toBe("priv/static/assets/spotter.css");
  });

  it("says each uncommitted path once, with no empty artifacts line, within 8 KB", () => {
    // (the state line names the files of the last edit: another fact)
    const listed = show.filter((l) => !l.startsWith("State of the last edit: ")).join("\n");
    for (const [p] of UNCOMMITTED) expect(listed.split(p).length - 1, `${p} in show`).toBe(1);
    expect(text).toMatch(/lib\/spotter_web\/live\/session_live\.ex \(\w+, x11\)/);
    expect(text).not.toContain("In-flight artifacts");
    expect(bytes).toBeLessThanOrEqual(8192);
  });

  it("keeps the model's plan whole, what the closed item did, and the state of the last edit", () => {
    expect(text).toContain("6. **spotter.css** - add debug grid and expand control styles");
    expect(text).toContain("397 tests pass, including 10 new SubagentLive tests.");
    expect(show.find((l) => l.startsWith("State of the last edit: "))).toContain(
      "not compiled or tested since: their state is unverified; run mix compile / mix test",
    );
    // carrying on starts with the checks the session ran
    expect(j.next.at(-1)).toContain("Restate the last edit's state");
    expect(j.next.at(-1)).toContain('"Carry on: run mix compile / mix test / mix credo first"');
  });
});
