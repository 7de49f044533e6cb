import { beforeAll, describe, expect, it } from "vitest";
import { cleanupCommand } from "../../cli/commands/cleanup.ts";
import { fetchCommand } from "../../cli/commands/fetch.ts";
import { listCommand } from "../../cli/commands/list.ts";
import { shareCommand } from "../../cli/commands/share.ts";
import { SHARE_HISTORY_MAX } from "../../lib/share/share-merge.ts";
import { ENGINE, ensureBuilt, runNodeAsync } from "../helpers/save-repo.ts";
import { checkpointText, shareWorld, type Clone, type ShareWorld } from "../helpers/share-world.ts";

// The shared ref's history bounded: cleanup squashes it past SHARE_HISTORY_MAX commits, the next
// push replaces the remote's with a lease, and the tombstones keep an older clone's long history
// from bringing pruned shares back (a squashed history has no merge base with it).

const COMMANDS = [shareCommand, fetchCommand, cleanupCommand, listCommand];
const SID = {
  a: "aaaaaaaa-1111-4222-8333-444444444444",
  b: "bbbbbbbb-1111-4222-8333-444444444444",
  c: "cccccccc-1111-4222-8333-444444444444",
} as const;
const day = (daysAgo: number) =>
  new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
const OLD = `${day(60)}T0800-payments.md`;
const REF = "refs/quoin/checkpoints";
// b keeps shares for 90 days: its own merges never drop OLD by age, only a tombstone can.
const LONG_WINDOW = { QUOIN_CLEANUP_CKPT_WINDOW: "90" };

function share(c: Clone, name: string, task: string, env: Record<string, string> = {}) {
  const sid = SID[c.name as keyof typeof SID];
  c.writeCheckpoint(
    name,
    checkpointText({
      root: c.root,
      home: c.home,
      sid,
      task,
      savedAt: `${name.slice(0, 10)}T08:00:00Z`,
    }),
  );
  const r = c.cli(COMMANDS, ["share", name, "--session", sid, "--json"], env);
  expect(r.json).toMatchObject({ ok: true, pushed: true });
  return `${task}/${sid}/${name}`;
}

/** `k` more commits of the same tree on the clone's local ref: a long history, quickly. */
function padHistory(c: Clone, k: number) {
  let tip = c.git("rev-parse", REF);
  const tree = c.git("rev-parse", `${tip}^{tree}`);
  for (let i = 0; i < k; i += 1) tip = c.git("commit-tree", tree, "-p", tip, "-m", `pad ${i}`);
  c.git("update-ref", REF, tip);
}

const remotePaths = (w: ShareWorld) =>
  w.bareGit("ls-tree", "-r", "--name-only", REF).split("\n").filter(Boolean).sort();
const remoteLength = (w: ShareWorld) => Number(w.bareGit("rev-list", "--count", REF));

/** a and b share (b's history holds OLD), then a's history grows past the bound, on the remote too. */
function longHistory() {
  const w = shareWorld();
  const [a, b, c] = [w.clone("a"), w.clone("b"), w.clone("c")];
  const old = share(a, OLD, "payments");
  const billing = share(b, `${day(0)}T0700-billing.md`, "billing", LONG_WINDOW);
  expect(b.git("ls-tree", "-r", "--name-only", REF)).toContain(old);
  c.cli(COMMANDS, ["fetch"]);
  a.cli(COMMANDS, ["fetch"]);
  // a's local ref at what it fetched (b's merge), then grown: a clone that shares often
  a.git("update-ref", REF, a.git("rev-parse", "refs/quoin/remotes/origin/checkpoints"));
  padHistory(a, SHARE_HISTORY_MAX + 5);
  expect(a.cli(COMMANDS, ["fetch", "--json"]).json).toMatchObject({ ok: true, pushed: true });
  expect(remoteLength(w)).toBeGreaterThan(SHARE_HISTORY_MAX);
  return { w, a, b, c, old, billing: [billing] };
}

describe("the shared ref's history is bounded", () => {
  beforeAll(ensureBuilt);

  it("cleanup squashes a history past the bound into one root commit; the next push replaces the remote's", () => {
    const { w, a, old, billing } = longHistory();
    const before = w.bareGit("rev-parse", REF);
    const out = a.cli(COMMANDS, ["cleanup", "--session", SID.a, "--json"]).json;
    expect(out.sharedPruned).toEqual([old]);
    expect(out.sharedSquashed).toBeGreaterThan(SHARE_HISTORY_MAX);
    expect(a.git("rev-list", "--count", REF)).toBe("1");
    expect(a.git("rev-list", "--parents", "-n1", REF).split(" ")).toHaveLength(1);
    // the remote still holds the long history until the next push, which leases on it
    expect(w.bareGit("rev-parse", REF)).toBe(before);
    const mine = share(a, `${day(0)}T0900-payments.md`, "payments");
    expect(remoteLength(w)).toBeLessThanOrEqual(3);
    expect(remotePaths(w)).toEqual([".pruned", ...billing, mine].sort());
    expect(a.git("status", "--porcelain")).toBe("");
  });

  it("cleanup --dry-run says it would squash, with the history's length now, with the prune commit, and the bound; nothing moves", () => {
    const { a } = longHistory();
    const tip = a.git("rev-parse", REF);
    const now = Number(a.git("rev-list", "--count", REF));
    expect(now).toBeGreaterThan(SHARE_HISTORY_MAX);
    const dry = a.cli(COMMANDS, ["cleanup", "--session", SID.a, "--dry-run", "--json"]).json;
    // OLD is pruned first: the real run squashes the history with its prune commit on top
    expect(dry.sharedHistory).toEqual({
      commits: now,
      afterPrune: now + 1,
      max: SHARE_HISTORY_MAX,
      squash: true,
    });
    expect(dry.sharedSquashed).toBeNull();
    const text = a.cli(COMMANDS, ["cleanup", "--session", SID.a, "--dry-run"]).stdout;
    const lines = text.split("\n").filter((l) => l.includes("squash"));
    expect(lines).toEqual([
      `[checkpoint] would squash the history of ${REF} into one root commit: ${now} commit(s) (${now + 1} with the prune), over the bound of ${SHARE_HISTORY_MAX}`,
    ]);
    expect(a.git("rev-parse", REF)).toBe(tip);
    // and the real run squashes the length the dry run named
    const real = a.cli(COMMANDS, ["cleanup", "--session", SID.a, "--json"]).json;
    expect(real.sharedSquashed).toBe(now + 1);
    expect(real.sharedHistory).toBeNull();
  });

  it("a clone with a pre-squash history shares again after the squash: its share lands, the pruned one stays gone", () => {
    const { w, a, b, c, old, billing } = longHistory();
    a.cli(COMMANDS, ["cleanup", "--session", SID.a, "--json"]);
    const mine = share(a, `${day(0)}T0900-payments.md`, "payments");
    // b did not fetch since: its ref still holds OLD, in a history with no base in common with the squashed one
    expect(b.git("ls-tree", "-r", "--name-only", REF)).toContain(old);
    const next = share(b, `${day(0)}T1000-billing.md`, "billing", LONG_WINDOW);
    expect(remotePaths(w)).toEqual([".pruned", ...billing, mine, next].sort());
    // the squash stands: the long history did not come back (b's own few commits may join)
    expect(remoteLength(w)).toBeLessThan(10);
    // c, the third clone, with the pre-squash history fetched: it sees no pruned share
    expect(c.cli(COMMANDS, ["fetch", "--json"]).json.ok).toBe(true);
    const listed = c.cli(COMMANDS, ["list", "--json"]).json.shared as { path: string }[];
    expect(listed.map((s) => s.path).sort()).toEqual([...billing, mine, next].sort());
  });

  it("two clones with pre-squash histories pushing at once after the squash: both land", async () => {
    const { w, a, b, c, old } = longHistory();
    a.cli(COMMANDS, ["cleanup", "--session", SID.a, "--json"]);
    share(a, `${day(0)}T0900-payments.md`, "payments");
    const names = { b: `${day(0)}T1100-billing.md`, c: `${day(0)}T1100-search.md` };
    for (const x of [b, c])
      x.writeCheckpoint(
        names[x.name as "b" | "c"],
        checkpointText({
          root: x.root,
          home: x.home,
          sid: SID[x.name as "b" | "c"],
          task: x.name === "b" ? "billing" : "search",
          savedAt: `${day(0)}T11:00:00Z`,
        }),
      );
    const results = await Promise.all(
      [b, c].map((x) =>
        runNodeAsync(
          ENGINE,
          ["share", names[x.name as "b" | "c"], "--session", SID[x.name as "b" | "c"], "--json"],
          {
            cwd: x.root,
            env: { ...process.env, HOME: x.home, HOSTNAME: `host-${x.name}`, ...LONG_WINDOW },
          },
        ),
      ),
    );
    for (const r of results)
      expect(JSON.parse(r?.stdout ?? "{}")).toMatchObject({ ok: true, pushed: true });
    const paths = remotePaths(w);
    expect(paths).toContain(`billing/${SID.b}/${names.b}`);
    expect(paths).toContain(`search/${SID.c}/${names.c}`);
    expect(paths).not.toContain(old);
    // the long history did not come back; b's and c's few own commits may join as second parents
    expect(remoteLength(w)).toBeLessThan(SHARE_HISTORY_MAX);
  });
});
