import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { fetchCommand } from "../../cli/commands/fetch.ts";
import { listCommand } from "../../cli/commands/list.ts";
import { restoreCommand } from "../../cli/commands/restore.ts";
import { shareCommand } from "../../cli/commands/share.ts";
import { checkpointText, shareWorld, type Clone } from "../helpers/share-world.ts";

// A shared ref that holds one 20 MB blob (more than spawn's 16 MB output buffer) beside a real
// shared checkpoint: fetch, list and restore --shared still see the real one, name the big one in
// one line, and the next share of another clone does not push the big one again.

const COMMANDS = [shareCommand, fetchCommand, listCommand, restoreCommand];
const SID_A = "aaaaaaaa-1111-4222-8333-444444444444";
const SID_C = "cccccccc-1111-4222-8333-444444444444";
const TODAY = new Date().toISOString().slice(0, 10);
const REF = "refs/quoin/checkpoints";
const BIG = "big/dddddddd-1111-4222-8333-444444444444/2026-12-01T0000-big.md";

function share(c: Clone, sid: string, task: string) {
  c.writeCheckpoint(
    `${TODAY}T0912-${task}.md`,
    checkpointText({ root: c.root, home: c.home, sid, task, savedAt: `${TODAY}T09:12:00Z` }),
  );
  return c.cli(COMMANDS, ["share", "--session", sid, "--json"]);
}

/** Clone m puts a 20 MB blob on the remote's shared ref, beside what is there. */
function pushBigBlob(m: Clone) {
  m.git("fetch", "-q", "origin", `+${REF}:${REF}`);
  const big = spawnSync("git", ["-C", m.root, "hash-object", "-w", "--stdin"], {
    input: `${"x".repeat(1023)}\n`.repeat(20 * 1024),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  }).stdout.trim();
  const index = `${m.root}/.git/quoin-test-index`;
  const env = { ...process.env, GIT_INDEX_FILE: index };
  const g = (...args: string[]) =>
    spawnSync("git", ["-C", m.root, ...args], { encoding: "utf8", env }).stdout.trim();
  g("read-tree", REF);
  g("update-index", "--add", "--cacheinfo", `100644,${big},${BIG}`);
  const tree = g("write-tree");
  const commit = g("commit-tree", tree, "-p", REF, "-m", "a big one");
  m.git("update-ref", REF, commit);
  m.git("push", "-q", "origin", `${REF}:${REF}`);
}

describe("a 20 MB blob on the shared ref", () => {
  it("is skipped with one line by fetch, list and restore --shared, and not pushed again", () => {
    const w = shareWorld();
    const a = w.clone("a");
    expect(share(a, SID_A, "payments").json.ok).toBe(true);
    pushBigBlob(w.clone("m"));
    expect(w.bareGit("ls-tree", "-r", "--name-only", REF)).toContain(BIG);

    const c = w.clone("c");
    const f = c.cli(COMMANDS, ["fetch", "--json"]);
    expect(f.code).toBe(0);
    expect(f.json).toMatchObject({ ok: true, shared: 1 });
    const skipped = f.stderr.split("\n").filter((l) => l.includes("skipped shared checkpoint"));
    expect(skipped).toEqual([
      `[checkpoint] skipped shared checkpoint ${BIG} from origin (20.0 MB, over the 64 KB bound): not read, not shared again`,
    ]);
    const list = c.cli(COMMANDS, ["list", "--json"]);
    expect(list.json.shared.map((s: { task: string }) => s.task)).toEqual(["payments"]);
    expect(list.stderr).toContain(`skipped shared checkpoint ${BIG}`);
    const restored = c.cli(COMMANDS, ["restore", "--shared", "s1", "--session", SID_C, "--json"]);
    expect(restored.code).toBe(0);

    // c's own share merges with the remote's ref: the big blob is not in what c pushes
    expect(share(c, SID_C, "refunds").json).toMatchObject({ ok: true, pushed: true });
    const onRemote = w.bareGit("ls-tree", "-r", "--name-only", REF).split("\n");
    expect(onRemote).not.toContain(BIG);
    expect(onRemote.filter((p) => p.endsWith(".md"))).toHaveLength(2);
  });

  it("fetch with no remote does not offer --no-push (share has it, fetch does not)", () => {
    const w = shareWorld();
    const c = w.clone("c");
    c.git("remote", "remove", "origin");
    const f = c.cli(COMMANDS, ["fetch"]);
    expect(f.code).toBe(1);
    expect(f.stderr).toContain("no git remote 'origin'");
    expect(f.stderr).not.toContain("--no-push");
    expect(c.cli(COMMANDS, ["share", "--session", SID_C]).stderr).toContain("--no-push");
  });
});
