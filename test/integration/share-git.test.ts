import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINE, ensureBuilt, runNodeAsync } from "../helpers/save-repo.ts";
import { shareCommand } from "../../cli/commands/share.ts";
import { listCommand } from "../../cli/commands/list.ts";
import { checkpointText, shareWorld, type Clone } from "../helpers/share-world.ts";

const COMMANDS = [shareCommand, listCommand];
const SID_A = "aaaaaaaa-1111-4222-8333-444444444444";
const SID_B = "bbbbbbbb-1111-4222-8333-444444444444";
const TODAY = new Date().toISOString().slice(0, 10);
const NAME = `${TODAY}T0912-payments.md`;
const SECRETS = [
  "sk-ant-api03-Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz",
  "ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF2hJ5",
  "AKIAIOSFODNN7EXAMPLE",
  "hunter2-correct-horse",
];
const EXTRA = `- curl -H 'x-api-key: ${SECRETS[0]}' failed\n- git push https://${SECRETS[1]}@github.com/x/y\n- aws ${SECRETS[2]}\n- DB_PASSWORD=${SECRETS[3]}\n`;

function saveCheckpoint(c: Clone, sid: string, name = NAME): string {
  return c.writeCheckpoint(
    name,
    checkpointText({
      root: c.root,
      home: c.home,
      sid,
      task: "payments",
      savedAt: `${TODAY}T09:12:00Z`,
      extra: EXTRA,
    }),
  );
}

function state(c: Clone) {
  return {
    status: c.git("status", "--porcelain"),
    head: c.git("rev-parse", "HEAD"),
    symbolic: c.git("symbolic-ref", "HEAD"),
    branches: c.git("for-each-ref", "refs/heads", "refs/remotes"),
    index: c.git("ls-files", "-s"),
  };
}

/** Every object in the bare repository, contents included (commit messages and blobs). */
function allObjects(bare: string): string {
  const res = spawnSync("git", ["cat-file", "--batch-all-objects", "--batch"], {
    cwd: bare,
    encoding: "utf8",
  });
  return res.stdout;
}

function sharedPaths(gitOut: (...a: string[]) => string, ref = "refs/quoin/checkpoints"): string[] {
  return gitOut("ls-tree", "-r", "--name-only", ref).split("\n").filter(Boolean).sort();
}

describe("share through a bare remote", () => {
  it("records and pushes without touching a branch, HEAD, the index or the working tree", () => {
    const w = shareWorld();
    const a = w.clone("a");
    saveCheckpoint(a, SID_A);
    const before = state(a);
    const r = a.cli(COMMANDS, ["share", "--session", SID_A, "--json"]);
    expect(r.json).toMatchObject({
      ok: true,
      pushed: true,
      remote: "origin",
      path: `payments/${SID_A}/${NAME}`,
    });
    expect(r.code).toBe(0);
    expect(state(a)).toEqual(before);
    expect(before.status).toBe("");
    expect(sharedPaths(w.bareGit)).toEqual([`payments/${SID_A}/${NAME}`]);
    expect(w.bareGit("for-each-ref", "--format=%(refname)", "refs/heads")).toBe("refs/heads/main");
  });

  it("pushes no typed secret, no absolute path of the sharing machine and no encoded project folder", () => {
    const w = shareWorld();
    const a = w.clone("a");
    saveCheckpoint(a, SID_A);
    expect(a.cli(COMMANDS, ["share", "--session", SID_A, "--json"]).json.ok).toBe(true);
    const objects = allObjects(w.bare);
    expect(objects).toContain("## Active task\npayments");
    for (const s of SECRETS) expect(objects).not.toContain(s);
    expect(objects).not.toContain(a.home);
    expect(objects).not.toContain(w.base);
    expect(objects).not.toContain(a.root.replace(/[^A-Za-z0-9-]/g, "-"));
    expect(objects).not.toContain(w.base.replace(/[^A-Za-z0-9-]/g, "-"));
    // what replaced them: relative, ~, [project], [redacted]
    expect(objects).toContain("- current-plan.md: .workflow_artifacts/payments/current-plan.md");
    expect(objects).toContain("~/notes/todo.md");
    expect(objects).toContain("~/.claude/projects/[project]/");
    expect(objects).toContain("DB_PASSWORD=[redacted]");
    expect(objects).toMatch(/quoin-share \{"user":"dev-a","host":"host-a","branch":"main"/);
  });

  it("--no-push records on the local ref with no remote at all; a push with no remote is refused in one line", () => {
    const w = shareWorld();
    const a = w.clone("a");
    a.git("remote", "remove", "origin");
    saveCheckpoint(a, SID_A);
    const refused = a.cli(COMMANDS, ["share", "--session", SID_A]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toContain("no git remote 'origin': nothing pushed");
    expect(() => a.git("rev-parse", "--verify", "-q", "refs/quoin/checkpoints")).toThrow();
    const json = a.cli(COMMANDS, ["share", "--session", SID_A, "--json"]).json;
    expect(json).toMatchObject({ ok: false });
    expect(json.expected).toContain("--no-push");
    const local = a.cli(COMMANDS, ["share", "1", "--no-push", "--json"]);
    expect(local.json).toMatchObject({ ok: true, pushed: false });
    expect(sharedPaths(a.git)).toEqual([`payments/${SID_A}/${NAME}`]);
  });

  it("refuses outside git, and with a remote that does not exist", () => {
    const w = shareWorld();
    const a = w.clone("a");
    saveCheckpoint(a, SID_A);
    const r = a.cli(COMMANDS, ["share", "--session", SID_A, "--remote", "nowhere", "--json"]);
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ ok: false, reason: "no git remote 'nowhere': nothing pushed" });
    rmSync(path.join(a.root, ".git"), { recursive: true });
    const outside = a.cli(COMMANDS, ["share", "1", "--no-push", "--json"]);
    expect(outside.code).toBe(1);
    expect(outside.json.reason).toMatch(
      /is not a git repository \(or git is missing\): nothing shared$/,
    );
  });

  it("two clones sharing same-named checkpoints of one branch both land: the second push merges", () => {
    const w = shareWorld();
    const a = w.clone("a");
    const b = w.clone("b");
    saveCheckpoint(a, SID_A);
    saveCheckpoint(b, SID_B);
    // both record before either pushes: the same moment, as far as the remote can tell
    expect(a.cli(COMMANDS, ["share", "--session", SID_A, "--no-push", "--json"]).json.ok).toBe(
      true,
    );
    expect(b.cli(COMMANDS, ["share", "--session", SID_B, "--no-push", "--json"]).json.ok).toBe(
      true,
    );
    expect(a.cli(COMMANDS, ["share", "--session", SID_A, "--json"]).json).toMatchObject({
      ok: true,
      merges: 0,
    });
    const second = b.cli(COMMANDS, ["share", "--session", SID_B, "--json"]).json;
    expect(second).toMatchObject({ ok: true, merges: 1 });
    expect(sharedPaths(w.bareGit)).toEqual(
      [`payments/${SID_A}/${NAME}`, `payments/${SID_B}/${NAME}`].sort(),
    );
    // the merge commit has both histories as parents
    expect(
      w.bareGit("rev-list", "--parents", "-n1", "refs/quoin/checkpoints").split(" "),
    ).toHaveLength(3);
  });
});

describe("share from two processes at the same moment", () => {
  beforeAll(ensureBuilt);

  it("two clones on one branch sharing same-named checkpoints at once: both land on the remote", async () => {
    const w = shareWorld();
    const a = w.clone("a");
    const b = w.clone("b");
    saveCheckpoint(a, SID_A);
    saveCheckpoint(b, SID_B);
    const env = (c: Clone) => ({ ...process.env, HOME: c.home, HOSTNAME: `host-${c.name}` });
    const [ra, rb] = await Promise.all(
      [a, b].map((c) =>
        runNodeAsync(ENGINE, ["share", "--session", c === a ? SID_A : SID_B, "--json"], {
          cwd: c.root,
          env: env(c),
        }),
      ),
    );
    for (const r of [ra, rb])
      expect(JSON.parse(r?.stdout ?? "{}")).toMatchObject({ ok: true, pushed: true });
    expect(sharedPaths(w.bareGit)).toEqual(
      [`payments/${SID_A}/${NAME}`, `payments/${SID_B}/${NAME}`].sort(),
    );
    for (const c of [a, b]) expect(c.git("status", "--porcelain")).toBe("");
  });
});
