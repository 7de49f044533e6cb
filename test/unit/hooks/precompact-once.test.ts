import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { runPreCompact } from "../../../lib/hooks/pre-compact.ts";
import { readHeadCheap } from "../../../lib/core/git.ts";
import { cutAtCompaction } from "../../helpers/summary-oracle.ts";
import { fakeDeps, type FakeDeps } from "../../helpers/memfs-deps.ts";

// One PreCompact checkpoint per compaction: a client that precomputes the summary fires PreCompact
// again when it re-arms. The real session spotter-4d5611e5, cut just before its compaction: a
// second PreCompact of the unchanged session writes nothing (and logs it); a typed request, an
// edit, a todo change or a moved HEAD between them writes a second one.

const FIXTURES = path.resolve(import.meta.dirname, "../../fixtures/transcripts");
const SID = "4d5611e5-241a-462a-8d15-5122611a9569";
const HOME = "/home/USER";
const ROOT = "/home/USER/projects/spotter-worktrees/spotter-dov";
const TRANSCRIPT = `${HOME}/.claude/projects/-home-USER-projects-spotter-worktrees-spotter-dov/${SID}.jsonl`;
const CKPTS = `${ROOT}/.workflow_artifacts/memory/checkpoints`;
// The hook log lives in the config folder, outside every repository.
const LOG = `${HOME}/.claude/quoin-checkpoint/logs/hooks.log`;
const SHA_A = "a".repeat(40);
const SHA_B = "b".repeat(40);

const lines = readFileSync(path.join(FIXTURES, `spotter-${SID}.jsonl`), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "");
const { before } = cutAtCompaction(lines);

function world(): FakeDeps {
  return fakeDeps({
    home: HOME,
    cwd: ROOT,
    files: {
      [`${ROOT}/.git/HEAD`]: "ref: refs/heads/spotter-dov\n",
      [`${ROOT}/.git/refs/heads/spotter-dov`]: `${SHA_A}\n`,
      [TRANSCRIPT]: `${before.join("\n")}\n`,
    },
  });
}

const preCompact = (deps: FakeDeps) =>
  runPreCompact(deps, {
    hook_event_name: "PreCompact",
    session_id: SID,
    transcript_path: TRANSCRIPT,
    cwd: ROOT,
    trigger: "auto",
  });

const checkpoints = (deps: FakeDeps) => deps.fs.readdirSync(CKPTS) as string[];

function entry(over: Record<string, unknown>): string {
  return JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    userType: "external",
    cwd: ROOT,
    sessionId: SID,
    version: "2.1.39",
    timestamp: "2026-02-12T20:30:00.000Z",
    uuid: "99999999-0000-4000-8000-000000000001",
    ...over,
  });
}

const toolUse = (name: string, input: Record<string, unknown>) =>
  entry({
    type: "assistant",
    message: {
      role: "assistant",
      model: "claude-opus-4-6",
      content: [{ type: "tool_use", id: "toolu_once_1", name, input }],
    },
  });

const append = (deps: FakeDeps, line: string) => deps.fs.appendFileSync(TRANSCRIPT, `${line}\n`);

describe("PreCompact once per compaction (spotter-4d5611e5, cut before its compaction)", () => {
  it("two PreCompacts of one unchanged session write one checkpoint; the second says so in the log", () => {
    const deps = world();
    const first = preCompact(deps);
    expect(first.saved).toBe(true);
    deps.setNow("2026-11-29T12:00:40Z");
    const second = preCompact(deps);
    expect(second.saved).toBe(false);
    expect(checkpoints(deps)).toEqual(["2026-11-29-spotter-dov-precompact.md"]);
    expect(second.checkpoint).toBe(`${CKPTS}/2026-11-29-spotter-dov-precompact.md`);
    const log = deps.fs.readFileSync(LOG, "utf8") as string;
    expect(log).toContain("PreCompact: nothing new since");
    expect(log).toContain("no checkpoint written");
  });

  const changes: Array<[string, (deps: FakeDeps) => void]> = [
    [
      "a typed request",
      (d) =>
        append(
          d,
          entry({ type: "user", message: { role: "user", content: "now run the full suite" } }),
        ),
    ],
    ["an edit", (d) => append(d, toolUse("Write", { file_path: `${ROOT}/lib/new_file.ex` }))],
    [
      "a todo change",
      (d) =>
        append(
          d,
          toolUse("TodoWrite", {
            todos: [{ content: "ship it", status: "in_progress", activeForm: "Shipping" }],
          }),
        ),
    ],
    [
      "a commit (HEAD moved)",
      (d) => d.fs.writeFileSync(`${ROOT}/.git/refs/heads/spotter-dov`, `${SHA_B}\n`),
    ],
  ];

  for (const [what, change] of changes)
    it(`${what} between two PreCompacts writes a second checkpoint and re-points the sentinel`, () => {
      const deps = world();
      expect(preCompact(deps).saved).toBe(true);
      // The Head section is the defects helper's; written here by hand where it is absent.
      const file = `${CKPTS}/2026-11-29-spotter-dov-precompact.md`;
      const text = deps.fs.readFileSync(file, "utf8") as string;
      if (!text.includes("## Head")) deps.fs.writeFileSync(file, `${text}\n## Head\n${SHA_A}\n`);
      deps.setNow("2026-11-29T12:05:00Z");
      change(deps);
      const second = preCompact(deps);
      if (!second.saved) throw new Error(second.reason);
      expect(checkpoints(deps)).toHaveLength(2);
      expect(
        deps.fs.readFileSync(
          `${ROOT}/.workflow_artifacts/memory/pending-restore-${SID}.txt`,
          "utf8",
        ),
      ).toBe(`${second.result.checkpoint}\n`);
    });
});

describe("readHeadCheap", () => {
  it("reads a loose ref, a packed ref and a detached HEAD; null without a repository", () => {
    const d = fakeDeps({
      files: {
        "/r/.git/HEAD": "ref: refs/heads/main\n",
        "/r/.git/packed-refs": `# pack-refs with: peeled\n${SHA_B} refs/heads/main\n`,
        "/s/.git/HEAD": `${SHA_A}\n`,
        "/t/x": "",
      },
    });
    expect(readHeadCheap(d.fs, "/r")).toBe(SHA_B);
    d.fs.mkdirSync("/r/.git/refs/heads", { recursive: true });
    d.fs.writeFileSync("/r/.git/refs/heads/main", `${SHA_A}\n`);
    expect(readHeadCheap(d.fs, "/r")).toBe(SHA_A);
    expect(readHeadCheap(d.fs, "/s")).toBe(SHA_A);
    expect(readHeadCheap(d.fs, "/t")).toBeNull();
  });
});
