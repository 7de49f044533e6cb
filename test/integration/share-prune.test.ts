import { describe, expect, it } from "vitest";
import { cleanupCommand } from "../../cli/commands/cleanup.ts";
import { fetchCommand } from "../../cli/commands/fetch.ts";
import { shareCommand } from "../../cli/commands/share.ts";
import { checkpointText, shareWorld, type Clone } from "../helpers/share-world.ts";

const COMMANDS = [shareCommand, fetchCommand, cleanupCommand];
const SID_A = "aaaaaaaa-1111-4222-8333-444444444444";
const SID_B = "bbbbbbbb-1111-4222-8333-444444444444";
const day = (daysAgo: number) =>
  new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
const OLD = `${day(60)}T0800-payments.md`;
const NEW_A = `${day(0)}T0900-payments.md`;
const NEW_B = `${day(0)}T0930-billing.md`;

function shareFile(c: Clone, sid: string, name: string, task: string, extra: string[] = []) {
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
  const r = c.cli(COMMANDS, ["share", name, "--session", sid, "--json", ...extra]);
  expect(r.json).toMatchObject({ ok: true });
  return r.json;
}

const onRemote = (w: ReturnType<typeof shareWorld>) =>
  w
    .bareGit("ls-tree", "-r", "--name-only", "refs/quoin/checkpoints")
    .split("\n")
    .filter((p) => p !== "" && p !== ".pruned")
    .sort();

describe("retention of the shared ref", () => {
  it("cleanup prunes shares older than the window as a new commit; a later merge with an older history does not bring them back", () => {
    const w = shareWorld();
    const a = w.clone("a");
    const b = w.clone("b");
    shareFile(a, SID_A, OLD, "payments");
    // b has the old share in its history too (it fetched, then shared and merged)
    b.cli(COMMANDS, ["fetch"]);
    const dry = a.cli(COMMANDS, ["cleanup", "--session", SID_A, "--dry-run", "--json"]).json;
    expect(dry.sharedPruned).toEqual([`payments/${SID_A}/${OLD}`]);
    // one share, one commit; the prune would make two, well within the bound: no squash
    expect(dry.sharedHistory).toEqual({ commits: 1, afterPrune: 2, max: 50, squash: false });
    expect(a.cli(COMMANDS, ["cleanup", "--session", SID_A, "--dry-run"]).stdout).toContain(
      "[checkpoint] would not squash the history of refs/quoin/checkpoints: 1 commit(s) (2 with the prune), within the bound of 50\n",
    );
    const before = a.git("rev-parse", "refs/quoin/checkpoints");
    const pruned = a.cli(COMMANDS, ["cleanup", "--session", SID_A, "--json"]).json;
    expect(pruned.sharedPruned).toEqual([`payments/${SID_A}/${OLD}`]);
    // a new commit on top, nothing rewritten
    expect(a.git("rev-parse", "refs/quoin/checkpoints^")).toBe(before);
    // only the tombstone of the pruned share is left
    expect(a.git("ls-tree", "-r", "--name-only", "refs/quoin/checkpoints")).toBe(".pruned");
    expect(a.git("cat-file", "blob", "refs/quoin/checkpoints:.pruned")).toMatch(
      new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:]+Z [0-9a-f]{40} payments/${SID_A}/${OLD}$`),
    );
    // meanwhile b shares and pushes: its first share has no history in common with the remote's,
    // and that base-less merge drops the shares past the window too
    shareFile(b, SID_B, NEW_B, "billing");
    expect(onRemote(w)).toEqual([`billing/${SID_B}/${NEW_B}`]);
    // a's next share is rejected, merges three-way, and the prune stands
    const next = shareFile(a, SID_A, NEW_A, "payments");
    expect(next.merges).toBe(1);
    expect(onRemote(w)).toEqual([`billing/${SID_B}/${NEW_B}`, `payments/${SID_A}/${NEW_A}`].sort());
    // and b, merging the pruned history into its own, does not undo it either
    shareFile(b, SID_B, `${day(0)}T1000-billing.md`, "billing");
    expect(onRemote(w)).not.toContain(`payments/${SID_A}/${OLD}`);
  });

  it("cleanup also prunes other clones' old shares that were fetched here", () => {
    const w = shareWorld();
    const a = w.clone("a");
    const c = w.clone("c");
    shareFile(a, SID_A, OLD, "payments");
    c.cli(COMMANDS, ["fetch"]);
    expect(c.cli(COMMANDS, ["cleanup", "--session", SID_B, "--json"]).json.sharedPruned).toEqual([
      `payments/${SID_A}/${OLD}`,
    ]);
    shareFile(c, SID_B, NEW_B, "billing");
    expect(onRemote(w)).toEqual([`billing/${SID_B}/${NEW_B}`]);
  });
});
