import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeAtomic } from "../../lib/core/atomic-write.ts";
import { renderCheckpoint } from "../../lib/store/checkpoint-format.ts";
import { NO_ARTIFACTS } from "../../lib/store/checkpoint-values.ts";
import { memoryPaths } from "../../lib/store/memory-paths.ts";
import { sentinelPath } from "../../lib/store/sentinels.ts";
import { asciiBody } from "../../lib/core/ascii-text.ts";
import { ENGINE_BUNDLE } from "../../lib/install/install-layout.ts";
import { briefRepeats } from "../helpers/brief-repeats.ts";

// `restore --json` is at most 8 KB whatever the repository holds: the model reads all of it, and
// a git status list alone can run to tens of KB. A real repository built here: 500 tracked files
// all changed, 7,000 untracked paths, 1,000 commits since the save; the checkpoint is a full one
// (a long model document, the handover sections).
const ENGINE = path.resolve(import.meta.dirname, "../../dist", ENGINE_BUNDLE);
const OLD = "aaaa1111-0000-4000-8000-000000000001";
const NEW = "bbbb2222-0000-4000-8000-000000000002";
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t",
};
let base = "";

const git = (repo: string, args: string[], input?: string) =>
  execFileSync("git", ["-C", repo, ...args], { encoding: "utf8", env: GIT_ENV, input }).trim();

beforeAll(() => {
  if (!fs.existsSync(ENGINE))
    execFileSync("npm", ["run", "build"], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      stdio: "ignore",
    });
});
afterAll(() => {
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

/** 1,000 empty commits on main after HEAD in one git process, dated now. */
function thousandCommits(repo: string): void {
  const now = Math.floor(Date.now() / 1000);
  let stream = "";
  for (let i = 1; i <= 1000; i += 1) {
    const msg = `later work ${i} by another session`;
    stream += `commit refs/heads/main\ncommitter t <t@t> ${now} +0000\ndata ${msg.length}\n${msg}\n`;
    if (i === 1) stream += "from refs/heads/main^0\n";
    stream += "\n";
  }
  git(repo, ["fast-import", "--quiet"], stream);
  git(repo, ["reset", "-q", "--soft", "main"]);
}

function bigRepo(): { repo: string; home: string; head: string } {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-brief-"));
  const repo = path.join(base, "repo");
  const home = path.join(base, "home");
  fs.mkdirSync(path.join(repo, "src"), { recursive: true });
  fs.mkdirSync(home);
  git(repo, ["init", "-q", "-b", "main"]);
  for (let i = 0; i < 500; i += 1) fs.writeFileSync(path.join(repo, "src", `m${i}.ts`), "one\n");
  git(repo, ["add", "."]);
  git(repo, ["commit", "-qm", "T-01 first"]);
  const head = git(repo, ["rev-parse", "HEAD"]);
  for (let i = 0; i < 500; i += 1) fs.writeFileSync(path.join(repo, "src", `m${i}.ts`), "two\n");
  for (let i = 0; i < 7000; i += 1) fs.writeFileSync(path.join(repo, `untracked-${i}.log`), "x");
  return { repo, home, head };
}

function fullCheckpoint(repo: string, head: string): string {
  const paths = memoryPaths(repo);
  fs.mkdirSync(paths.checkpoints, { recursive: true });
  const savedAt = new Date(Date.now() - 3600_000);
  const long = (what: string, i: number) => `${what} ${i}: ${"detail ".repeat(40)}`;
  const body = renderCheckpoint(
    {
      status: "checkpoint save (voluntary)",
      currentStage: "implementing",
      task: "brief",
      branch: "main",
      sessionId: OLD,
      projectHash: "-tmp-repo",
      savedAt,
      intent: "make restore answer in a bounded brief",
      artifacts: NO_ARTIFACTS,
      commits: Array.from({ length: 10 }, (_, i) => ({
        hash: i === 0 ? head.slice(0, 7) : `dead${String(i).padStart(3, "0")}`,
        subject: `T-0${i} step`,
      })),
      done: Array.from({ length: 20 }, (_, i) => long("done", i)),
      inProgress: "x".repeat(2000),
      nextUp: Array.from({ length: 20 }, (_, i) => ({
        item: long("next", i),
        prerequisitesMet: true,
      })),
      decisions: Array.from({ length: 20 }, (_, i) => `- ${long("decision", i)}`).join("\n"),
      openQuestions: Array.from({ length: 20 }, (_, i) => `- ${long("question", i)}`).join("\n"),
      digest: {
        firstRequest: { text: "Make the restore a brief. ".repeat(30), at: null },
        requests: [{ text: "go on ".repeat(100), at: null }],
        requestCount: 2,
        changed: Array.from({ length: 60 }, (_, i) => ({ path: `src/m${i}.ts`, count: 2 })),
        read: Array.from({ length: 60 }, (_, i) => ({ path: `src/r${i}.ts`, count: 1 })),
        todos: Array.from({ length: 30 }, (_, i) => ({
          content: long("todo", i),
          status: "pending" as const,
        })),
        failures: Array.from({ length: 10 }, (_, i) => ({
          command: `npm test ${i}`,
          error: "e".repeat(300),
          at: null,
        })),
        summary: null,
        truncated: false,
      },
    },
    asciiBody,
  ).text;
  const words = Array.from(
    { length: 5 },
    (_, i) => `- 2026-12-01T10:0${i}Z ${"Now the next step. ".repeat(15)}`,
  );
  const uncommitted = Array.from({ length: 30 }, (_, i) => `- src/m${i}.ts (modified)`);
  const text = `${body}\n## Head\n${head}\n\n## Last words\n${words.join("\n")}\n\n## Uncommitted\n${uncommitted.join("\n")}\n`;
  const file = path.join(paths.checkpoints, "2026-12-01T1000-brief.md");
  fs.writeFileSync(file, text, { mode: 0o600 });
  writeAtomic(fs, sentinelPath(paths.memory, "pending-restore", OLD), `${file}\n`, {
    mode: 0o600,
  });
  return file;
}

describe("restore --json stays a brief in a big repository", { timeout: 120_000 }, () => {
  it("is at most 8 KB beside 7,000 untracked paths, 500 changed files and 1,000 commits since the save", () => {
    const { repo, home, head } = bigRepo();
    const file = fullCheckpoint(repo, head);
    thousandCommits(repo);
    const res = spawnSync(
      process.execPath,
      [ENGINE, "restore", "--json", "--session", NEW, "--cwd", repo],
      { encoding: "utf8", env: { PATH: process.env["PATH"], HOME: home, TZ: "UTC" } },
    );
    expect(res.status, res.stderr).toBe(0);
    const bytes = Buffer.byteLength(res.stdout);
    console.log(`restore --json: ${bytes} bytes`);
    if (process.env["BRIEF_DUMP"]) fs.writeFileSync(process.env["BRIEF_DUMP"], res.stdout);
    expect(bytes).toBeLessThanOrEqual(8192);
    const j = JSON.parse(res.stdout);
    expect(j.action).toBe("restore");
    // git's findings are said once, in show: the counts, the first 20 entries, the commits since
    expect(j).not.toHaveProperty("reconcile");
    expect(briefRepeats(j)).toEqual([]);
    const show = j.show.join("\n");
    expect(show).toContain("Checkpoint kind: curated");
    expect(show).toContain(`From: ${file}`);
    expect(show).toContain("Drift: 1000+ commit(s) since the checkpoint was saved");
    expect(show).toContain("Drift: 9 commits are not in this clone: dead001");
    expect(show).toContain(
      "Working tree now: 7501 changed path(s): 500 modified, 7001 untracked; listed: 20,",
    );
    expect(j.next.join("\n")).toContain('AskUserQuestion "What next?"');
  });
});
