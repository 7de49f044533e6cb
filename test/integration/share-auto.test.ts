import { copyFileSync, mkdirSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { fetchCommand } from "../../cli/commands/fetch.ts";
import { nodeDeps } from "../../lib/edge/node-deps.ts";
import { runSessionEnd } from "../../lib/hooks/session-end.ts";
import { FIXTURES } from "../helpers/run-bundle.ts";
import { saveCommand } from "../../cli/commands/save.ts";
import { shareWorld } from "../helpers/share-world.ts";

const SID = "aaaaaaaa-1111-4222-8333-444444444444";
const BUSY_SID = "4d5611e5-241a-462a-8d15-5122611a9569";

describe("QUOIN_SHARE=auto", () => {
  it("a /checkpoint save is also shared and pushed; without the knob nothing leaves", () => {
    const w = shareWorld();
    const a = w.clone("a");
    const plain = a.cli(
      [saveCommand],
      ["save", "--session", SID, "--mode", "restore", "--task", "payments", "--json"],
    );
    expect(plain.json).toMatchObject({ ok: true });
    expect(plain.json.shared).toBeUndefined();
    expect(() => a.git("rev-parse", "--verify", "-q", "refs/quoin/checkpoints")).toThrow();
    const auto = a.cli(
      [saveCommand],
      ["save", "--session", SID, "--mode", "restore", "--task", "payments", "--json"],
      { QUOIN_SHARE: "auto" },
    );
    expect(auto.json).toMatchObject({
      ok: true,
      shared: { ok: true, pushed: true, remote: "origin" },
    });
    const name = (auto.json.checkpoint as string).split("/").pop();
    expect(w.bareGit("ls-tree", "-r", "--name-only", "refs/quoin/checkpoints")).toBe(
      `payments/${SID}/${name}`,
    );
    expect(a.git("status", "--porcelain")).toBe("");
  });
});

describe("QUOIN_SHARE=auto at SessionEnd", () => {
  it("the snapshot is recorded on the local ref only (no push in SessionEnd), and the next fetch pushes it", () => {
    const w = shareWorld();
    const a = w.clone("a");
    const dir = path.join(a.home, ".claude", "projects", a.root.replace(/[^A-Za-z0-9-]/g, "-"));
    mkdirSync(dir, { recursive: true });
    const transcript = path.join(dir, `${BUSY_SID}.jsonl`);
    copyFileSync(path.join(FIXTURES, `spotter-${BUSY_SID}.jsonl`), transcript);
    const deps = nodeDeps({
      cwd: a.root,
      home: a.home,
      env: {
        ...process.env,
        HOME: a.home,
        CLAUDE_CONFIG_DIR: path.join(a.home, ".claude"),
        QUOIN_SHARE: "auto",
      },
      warn: () => {},
    });
    const started = Date.now();
    const out = runSessionEnd(
      deps,
      {
        session_id: BUSY_SID,
        transcript_path: transcript,
        cwd: a.root,
        hook_event_name: "SessionEnd",
        reason: "other",
      },
      { deadlineAt: Date.now() + 30_000, share: "auto" },
    );
    const tookMs = Date.now() - started;
    expect(out.saved).toBe(true);
    const name = out.saved ? path.basename(out.checkpoint) : "";
    expect(a.git("ls-tree", "-r", "--name-only", "refs/quoin/checkpoints")).toMatch(
      new RegExp(`/${BUSY_SID}/${name}$`),
    );
    expect(() => w.bareGit("rev-parse", "--verify", "-q", "refs/quoin/checkpoints")).toThrow();
    expect(a.cli([fetchCommand], ["fetch", "--json"]).json).toMatchObject({
      ok: true,
      pushed: true,
    });
    expect(w.bareGit("ls-tree", "-r", "--name-only", "refs/quoin/checkpoints")).toContain(name);
    // the whole hook, snapshot and local share, inside SessionEnd's 1.5 s on this machine
    expect(tookMs).toBeLessThan(1500);
  });
});
