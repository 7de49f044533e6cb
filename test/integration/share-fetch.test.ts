import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fetchCommand } from "../../cli/commands/fetch.ts";
import { listCommand } from "../../cli/commands/list.ts";
import { restoreCommand } from "../../cli/commands/restore.ts";
import { shareCommand } from "../../cli/commands/share.ts";
import { showCommand } from "../../cli/commands/show.ts";
import { checkpointText, shareWorld, type Clone } from "../helpers/share-world.ts";

const COMMANDS = [shareCommand, fetchCommand, listCommand, showCommand, restoreCommand];
const SID_A = "aaaaaaaa-1111-4222-8333-444444444444";
const SID_C = "cccccccc-1111-4222-8333-444444444444";
const TODAY = new Date().toISOString().slice(0, 10);
const NAME = `${TODAY}T0912-payments.md`;

function sharedFromA() {
  const w = shareWorld();
  const a = w.clone("a");
  a.writeCheckpoint(
    NAME,
    checkpointText({
      root: a.root,
      home: a.home,
      sid: SID_A,
      task: "payments",
      savedAt: `${TODAY}T09:12:00Z`,
    }),
  );
  expect(a.cli(COMMANDS, ["share", "--session", SID_A, "--json"]).json.ok).toBe(true);
  return { w, a };
}

function worktree(c: Clone) {
  return {
    status: c.git("status", "--porcelain"),
    head: c.git("rev-parse", "HEAD"),
    refs: c.git("for-each-ref", "refs/heads"),
  };
}

describe("another clone fetches, lists, shows and restores a shared checkpoint", () => {
  it("restore on a clone with no checkpoint says the remote holds shared ones and that fetch brings them", () => {
    const { w } = sharedFromA();
    const c = w.clone("c");
    const r = c.cli(COMMANDS, ["restore", "--session", SID_C]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("origin holds shared checkpoints of other clones");
    expect(r.stdout).toContain("fetch brings them");
  });

  it("fetch brings the ref beside (never over) the local one; list and show mark where it came from", () => {
    const { w } = sharedFromA();
    const c = w.clone("c");
    const f = c.cli(COMMANDS, ["fetch", "--json"]);
    expect(f.json).toMatchObject({
      ok: true,
      remote: "origin",
      ref: "refs/quoin/remotes/origin/checkpoints",
      shared: 1,
    });
    expect(() => c.git("rev-parse", "--verify", "-q", "refs/quoin/checkpoints")).toThrow();
    const list = c.cli(COMMANDS, ["list", "--json"]).json;
    expect(list.checkpoints).toEqual([]);
    expect(list.shared).toHaveLength(1);
    expect(list.shared[0]).toMatchObject({
      label: "s1",
      remote: "origin",
      task: "payments",
      sessionId: SID_A,
      origin: { user: "dev-a", host: "host-a", branch: "main" },
    });
    const text = c.cli(COMMANDS, ["list"]).stdout;
    expect(text).toMatch(/s1\. .*payments .*shared by dev-a@host-a, branch main, /);
    const show = c.cli(COMMANDS, ["show", "s1"]);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain("shared by dev-a@host-a");
    expect(show.stdout).toContain("## Active task\npayments");
    expect(c.cli(COMMANDS, ["show", "s2", "--json"]).json).toMatchObject({
      ok: false,
      expected: "a shared number from list, e.g. s1",
    });
  });

  it("restore never picks a shared one by itself; --shared s1 copies it here and restores it, working set intact", () => {
    const { w } = sharedFromA();
    const c = w.clone("c");
    c.cli(COMMANDS, ["fetch"]);
    const before = worktree(c);
    const auto = c.cli(COMMANDS, ["restore", "--session", SID_C, "--json"]).json;
    expect(auto.action).toBe("none");
    expect(auto.sharedHint).toContain("restore --shared s1");
    const picked = c.cli(COMMANDS, ["restore", "--session", SID_C, "--shared", "s1", "--json"]);
    expect(picked.code).toBe(0);
    expect(picked.json.action).toBe("restore");
    const file = picked.json.adoptedShared as string;
    expect(file.startsWith(c.root)).toBe(true);
    expect(existsSync(file)).toBe(true);
    // restored as any other: this checkpoint, finished (no question left open)
    expect(picked.json.done).toBe(true);
    expect(JSON.stringify(picked.json)).toContain(file.split("/").pop());
    const copied = readFileSync(file, "utf8");
    // artifact paths resolved against this clone, the origin kept
    expect(copied).toContain(
      `- current-plan.md: ${c.root}/.workflow_artifacts/payments/current-plan.md`,
    );
    expect(copied).toContain('"user":"dev-a"');
    expect(worktree(c)).toEqual(before);
    expect(before.status).toBe("");
    // shared on from here, it carries one origin line: this clone's
    const again = c.cli(COMMANDS, [
      "share",
      file.split("/").pop() as string,
      "--no-push",
      "--json",
    ]).json;
    const blob = c.git("cat-file", "blob", `refs/quoin/checkpoints:${again.path}`);
    expect(blob.match(/quoin-share/g)).toHaveLength(1);
    expect(blob).toContain('"user":"dev-c"');
  });

  it("a share recorded with --no-push goes out on the next fetch", () => {
    const { w, a } = sharedFromA();
    const b = w.clone("b");
    b.writeCheckpoint(
      `${TODAY}T1000-billing.md`,
      checkpointText({
        root: b.root,
        home: b.home,
        sid: SID_C,
        task: "billing",
        savedAt: `${TODAY}T10:00:00Z`,
      }),
    );
    expect(b.cli(COMMANDS, ["share", "--session", SID_C, "--no-push", "--json"]).json.pushed).toBe(
      false,
    );
    expect(b.cli(COMMANDS, ["fetch", "--json"]).json).toMatchObject({ ok: true, pushed: true });
    expect(
      w.bareGit("ls-tree", "-r", "--name-only", "refs/quoin/checkpoints").split("\n").sort(),
    ).toEqual([`billing/${SID_C}/${TODAY}T1000-billing.md`, `payments/${SID_A}/${NAME}`].sort());
    expect(a.cli(COMMANDS, ["fetch", "--json"]).json.shared).toBe(1);
    // b's own ref now holds a's share too (merged): it is still listed as a's, b's own is not
    const listed = b.cli(COMMANDS, ["list", "--json"]).json.shared;
    expect(listed.map((x: { sessionId: string }) => x.sessionId)).toEqual([SID_A]);
  });
});

describe("restore's picker numbers shared checkpoints after the local ones", () => {
  function cloneWithTwoLocal() {
    const { w } = sharedFromA();
    const c = w.clone("c");
    c.cli(COMMANDS, ["fetch"]);
    const local = ["T0700-billing", "T0800-billing"].map((t, i) =>
      c.writeCheckpoint(
        `${TODAY}${t}.md`,
        checkpointText({
          root: c.root,
          home: c.home,
          sid: `dddddddd-1111-4222-8333-44444444444${i}`,
          task: "billing",
          savedAt: `${TODAY}T0${7 + i}:00:00Z`,
        }),
      ),
    );
    return { c, local };
  }
  const copied = (c: Clone) => `${c.root}/.workflow_artifacts/memory/checkpoints/${NAME}`;

  it("the menu lists the local ones 1 and 2, then the shared one as 3 marked with its origin; nothing is copied", () => {
    const { c } = cloneWithTwoLocal();
    const r = c.cli(COMMANDS, ["restore", "--session", SID_C, "--json"]).json;
    expect(r.action).toBe("choose");
    const rows = (r.show as string[]).filter((l) => /^\s+\d+\./.test(l));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/^\s+1\. .*: billing \[/);
    expect(rows[1]).toMatch(/^\s+2\. .*: billing \[/);
    expect(rows[2]).toMatch(
      new RegExp(
        `^\\s+3\\.\\s+shared by another clone, .*: payments \\[.*\\(shared s1: dev-a@host-a, branch main, ${TODAY}T`,
      ),
    );
    expect(r.candidates.map((x: { n: number; source: string }) => [x.n, x.source])).toEqual([
      [1, "disk-only"],
      [2, "disk-only"],
      [3, "shared"],
    ]);
    expect(r.show.join("\n")).toContain("(shared s1: dev-a@host-a");
    expect(r.sharedHint).toBeUndefined();
    expect(existsSync(copied(c))).toBe(false);
    // the text form shows the same numbered row
    expect(c.cli(COMMANDS, ["restore", "--session", SID_C]).stdout).toMatch(/ 3\. .*shared s1/);
  });

  it("--pick 1 restores a local one; --pick 3 copies the shared one here and restores it", () => {
    const { c, local } = cloneWithTwoLocal();
    const own = c.cli(COMMANDS, ["restore", "--session", SID_C, "--pick", "1", "--json"]).json;
    expect(own.action).toBe("restore");
    expect(own.adoptedShared).toBeUndefined();
    expect(local.map((f) => f.split("/").pop())).toContain(own.file.split("/").pop());
    expect(existsSync(copied(c))).toBe(false);
    const picked = c.cli(COMMANDS, ["restore", "--session", SID_C, "--pick", "3", "--json"]).json;
    expect(picked).toMatchObject({ ok: true, action: "restore", done: true });
    expect(picked.adoptedShared).toBe(copied(c));
    expect(picked.file).toBe(copied(c));
    expect(readFileSync(copied(c), "utf8")).toContain('"user":"dev-a"');
  });

  it("a number past the shared ones is refused as before", () => {
    const { c } = cloneWithTwoLocal();
    const r = c.cli(COMMANDS, ["restore", "--session", SID_C, "--pick", "4", "--json"]);
    expect(r.code).toBe(2);
    expect(r.json.action).toBe("invalid");
    expect(existsSync(copied(c))).toBe(false);
  });
});

describe("restore beside one local checkpoint", () => {
  it("one local checkpoint is restored by itself; the shared one is never picked automatically", () => {
    const { w } = sharedFromA();
    const c = w.clone("c");
    c.cli(COMMANDS, ["fetch"]);
    c.writeCheckpoint(
      `${TODAY}T0800-billing.md`,
      checkpointText({
        root: c.root,
        home: c.home,
        sid: "dddddddd-1111-4222-8333-444444444440",
        task: "billing",
        savedAt: `${TODAY}T08:00:00Z`,
      }),
    );
    const r = c.cli(COMMANDS, ["restore", "--session", SID_C, "--json"]).json;
    expect(r.action).toBe("restore");
    expect(r.file).toContain("T0800-billing.md");
    expect(JSON.stringify(r)).not.toContain(NAME);
    expect(existsSync(`${c.root}/.workflow_artifacts/memory/checkpoints/${NAME}`)).toBe(false);
  });
});
