import { describe, expect, it } from "vitest";
import { restoreJson, restoreText } from "../../../lib/restore/brief/restore-answer.ts";
import type { OfferedShared, SharedSource } from "../../../lib/restore/restore-outcome.ts";
import { runRestore } from "../../../lib/restore/restore-run.ts";
import { MemoryFixture } from "../../helpers/memory-fixture.ts";

const ENGINE = 'node "/e/quoin-checkpoint.cjs"';
const CUR = "cccc0000-0000-0000-0000-000000000001";

const shared = (i: number): OfferedShared => ({
  label: `s${i}`,
  name: `2026-11-29T0${i}00-remote.md`,
  task: "remote",
  branch: "main",
  savedAt: `2026-11-29T0${i}:00:00Z`,
  from: `dev-b@laptop, branch main, 2026-11-29T0${i}:05Z`,
});

function twelveLocal(): MemoryFixture {
  const f = new MemoryFixture();
  for (let i = 0; i < 12; i += 1)
    f.checkpoint(`2026-11-29T${String(10 + i).padStart(2, "0")}00-t${i}.md`, {
      task: `t${i}`,
      ageDays: 0.01 * (i + 1),
    });
  return f;
}

describe("the picker numbers shared checkpoints after every local candidate", () => {
  it("12 local (10 shown, 2 older), then shared from 13 on, at most 5 rows, each marked with its origin", () => {
    const f = twelveLocal();
    const o = runRestore(f.deps(), f.knobs(), { paths: f.paths, sessionId: CUR });
    expect(o.action).toBe("choose");
    const offered = [1, 2, 3, 4, 5, 6].map(shared);
    const lines = restoreText({ ...o, offeredShared: offered }, ENGINE).split("\n");
    const older = lines.findIndex((l) => l.includes("... and 2 older."));
    expect(lines[older + 1]).toBe(
      "  13.   shared by another clone, 2026-11-29T01:00:00Z: remote [main]  (shared s1: dev-b@laptop, branch main, 2026-11-29T01:05Z)",
    );
    expect(lines[older + 5]).toMatch(/^ {2}17\. .*\(shared s5: /);
    expect(lines[older + 6]).toBe("  ... and 1 more shared (list shows them).");
    const json = restoreJson({ ...o, offeredShared: offered }, ENGINE) as {
      candidates: { n: number }[];
    };
    expect(json.candidates.map((c) => c.n)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 14, 15, 16, 17,
    ]);
  });

  it("without shared checkpoints the menu is as before", () => {
    const f = twelveLocal();
    const o = runRestore(f.deps(), f.knobs(), { paths: f.paths, sessionId: CUR });
    expect(o.offeredShared).toEqual([]);
    expect(restoreText(o, ENGINE)).not.toContain("shared");
  });

  it("a pick past the 12 local candidates adopts the shared checkpoint numbered so (13 is s1), from the one listing", () => {
    const f = twelveLocal();
    const adopted: string[] = [];
    const source: SharedSource = {
      list: () => [1, 2].map(shared),
      adopt: (arg) => {
        adopted.push(arg);
        return { ok: false, reason: `not here: ${arg}`, expected: "s1" };
      },
      remoteHolding: () => null,
    };
    const req = { paths: f.paths, sessionId: CUR, sharedSource: source };
    const local = runRestore(f.deps(), f.knobs(), { ...req, pick: 12 });
    expect(local.action).toBe("restore");
    expect(adopted).toEqual([]);
    const o = runRestore(f.deps(), f.knobs(), { ...req, pick: 14 });
    expect(adopted).toEqual(["s2"]);
    expect(o).toMatchObject({ action: "invalid", reason: "not here: s2", expected: "s1" });
    expect(runRestore(f.deps(), f.knobs(), { ...req, pick: 15 }).action).toBe("invalid");
    expect(adopted).toEqual(["s2"]);
  });
});
