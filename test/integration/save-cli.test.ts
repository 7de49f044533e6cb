import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseCheckpoint } from "../../lib/store/checkpoint-parse.ts";
import { bashLines, transcriptText, userLine } from "../helpers/session-transcript.ts";
import {
  ENGINE,
  ensureBuilt,
  runNode,
  runNodeAsync,
  tempRepo,
  type TempRepo,
} from "../helpers/save-repo.ts";

beforeAll(ensureBuilt);

const SID = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee";

function save(repo: TempRepo, args: string[], input = "") {
  const r = runNode(ENGINE, ["save", "--json", ...args], { cwd: repo.root, env: repo.env, input });
  return { ...r, json: r.stdout ? JSON.parse(r.stdout) : null };
}

function withSessionState(repo: TempRepo): void {
  const dir = path.join(repo.root, ".workflow_artifacts", "memory", "sessions");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "2026-11-29-indexer.md"),
    `## Cost\n- Session UUID: ${SID}\n- Phase: implement\n\n## Unfinished work\n- T-7 ranking\n`,
  );
}

describe("save in a real repository, through the built engine", () => {
  it("restore mode writes exactly the checkpoint, the sentinel, recent-sessions.md and the ledger (its task folder exists)", () => {
    const repo = tempRepo();
    withSessionState(repo);
    // quoin's workflow made the task folder: the ledger row goes there
    mkdirSync(path.join(repo.root, ".workflow_artifacts", "indexer"));
    const before = repo.files();
    const r = save(repo, ["--session", SID, "--mode", "restore"]);
    expect(r.code).toBe(0);
    const added = repo.files().filter((f) => !before.includes(f));
    expect(added).toHaveLength(4);
    expect(added.filter((f) => !f.includes("/checkpoints/"))).toEqual([
      ".workflow_artifacts/indexer/cost-ledger.md",
      `.workflow_artifacts/memory/pending-restore-${SID}.txt`,
      ".workflow_artifacts/memory/recent-sessions.md",
    ]);
    expect(added.find((f) => f.includes("/checkpoints/"))).toMatch(
      /^\.workflow_artifacts\/memory\/checkpoints\/\d{4}-\d{2}-\d{2}T\d{4}-indexer\.md$/,
    );
    expect(readFileSync(r.json.sentinel, "utf8")).toBe(`${r.json.checkpoint}\n`);
    expect(statSync(r.json.checkpoint).mode & 0o777).toBe(0o600);
    expect(parseCheckpoint(readFileSync(r.json.checkpoint, "utf8")).branch).toBe("main");
  });

  it("load-as-reference and mid-agent write their own sentinel and nothing the other modes write; no task folder, no ledger", () => {
    const repo = tempRepo();
    withSessionState(repo);
    let before = repo.files();
    const ref = save(repo, ["--session", SID, "--mode", "load-as-reference"]);
    let added = repo.files().filter((f) => !before.includes(f));
    expect(added.filter((f) => !f.includes("checkpoints/"))).toEqual([
      `.workflow_artifacts/memory/pending-resume-ref-${SID}.txt`,
      ".workflow_artifacts/memory/recent-sessions.md",
    ]);
    expect(readFileSync(ref.json.sentinel, "utf8")).toBe(
      `prior_session_uuid=${SID}\ncheckpoint_path=${ref.json.checkpoint}\n`,
    );

    before = repo.files();
    const mid = save(repo, ["--session", SID, "--mode", "mid-agent"]);
    added = repo.files().filter((f) => !before.includes(f));
    expect(mid.json.checkpoint).toBeNull();
    expect(added).toEqual([`.workflow_artifacts/memory/mid-agent-handoff-${SID}.txt`]);
  });

  it("lists this session's commits with their real hashes; another session's only as a count", () => {
    const repo = tempRepo();
    const transcript = path.join(repo.home, "t.jsonl");
    const at = new Date(Date.now() - 60_000).toISOString();
    const out = repo.git("commit", "--allow-empty", "-m", "T-3 lexer done");
    const hash = repo.git("rev-parse", "--short", "HEAD");
    repo.git("commit", "-q", "--allow-empty", "-m", "another session's commit");
    writeFileSync(
      transcript,
      transcriptText([
        userLine(SID, at, "finish the lexer"),
        bashLines(SID, at, "git add . && git commit -m 'T-3 lexer done'", out),
      ]),
    );
    const r = save(repo, [
      "--session",
      SID,
      "--transcript",
      transcript,
      "--next-blocked",
      "T-4 parser",
    ]);
    const parsed = parseCheckpoint(readFileSync(r.json.checkpoint, "utf8"));
    expect(parsed.commits).toEqual([{ hash, subject: "T-3 lexer done" }]);
    expect(parsed.otherCommits).toBe(1);
    expect(parsed.nextUp).toEqual([{ item: "T-4 parser", prerequisitesMet: false }]);
  });

  it("refuses a session id like ../../etc/x, says why, and creates nothing", () => {
    const repo = tempRepo();
    const r = save(repo, ["--session", "../../etc/x"]);
    expect(r.code).toBe(2); // a bad value (cli/answer.ts EXIT_CAUSES)
    expect(r.json.ok).toBe(false);
    expect(r.json.reason).toContain("is not valid");
    expect(repo.files()).toEqual([]);
  });

  it("reduces a task name with slashes: every file stays inside .workflow_artifacts/", () => {
    const repo = tempRepo();
    const r = save(repo, ["--session", SID, "--task", "../../../outside/evil"]);
    expect(r.json.warnings.join("\n")).toContain("reduced to 'outside-evil'");
    expect(repo.files().every((f) => f.startsWith(".workflow_artifacts/"))).toBe(true);
    expect(path.dirname(r.json.checkpoint)).toBe(
      path.join(repo.root, ".workflow_artifacts", "memory", "checkpoints"),
    );
  });
});

describe("twenty saves at once", () => {
  it("twenty sessions in one repository give twenty intact checkpoints and twenty sentinels", async () => {
    const repo = tempRepo();
    mkdirSync(path.join(repo.root, ".workflow_artifacts", "shared-task"), { recursive: true });
    const sids = Array.from(
      { length: 20 },
      (_, i) => `cafe0000-0000-0000-0000-${String(i).padStart(12, "0")}`,
    );
    const results = await Promise.all(
      sids.map((sid) =>
        runNodeAsync(
          ENGINE,
          ["save", "--json", "--session", sid, "--task", "shared-task", "--mode", "restore"],
          { cwd: repo.root, env: repo.env },
        ),
      ),
    );
    const outs = results.map((r) => JSON.parse(r.stdout));
    expect(outs.every((o) => o.ok)).toBe(true);
    const checkpoints = new Set(outs.map((o) => o.checkpoint));
    expect(checkpoints.size).toBe(20);
    const files = repo.files();
    expect(files.filter((f) => f.includes("/checkpoints/"))).toHaveLength(20);
    expect(files.filter((f) => /memory\/pending-restore-/.test(f))).toHaveLength(20);
    expect(files.filter((f) => f.endsWith(".tmp"))).toEqual([]);
    for (const [i, sid] of sids.entries()) {
      const sentinel = path.join(
        repo.root,
        ".workflow_artifacts",
        "memory",
        `pending-restore-${sid}.txt`,
      );
      const checkpoint = readFileSync(sentinel, "utf8").trim();
      expect(checkpoint).toBe(outs[i].checkpoint);
      const text = readFileSync(checkpoint, "utf8");
      const parsed = parseCheckpoint(text);
      expect(parsed.sessionId).toBe(sid);
      expect(text.trimEnd().endsWith("from branch 'main'.")).toBe(true);
    }
    const ledger = readFileSync(
      path.join(repo.root, ".workflow_artifacts", "shared-task", "cost-ledger.md"),
      "utf8",
    );
    expect(ledger.trim().split("\n")).toHaveLength(20);
    const recent = readFileSync(
      path.join(repo.root, ".workflow_artifacts", "memory", "recent-sessions.md"),
      "utf8",
    );
    expect(recent.trim().split("\n")).toHaveLength(20);
  }, 60_000);
});
