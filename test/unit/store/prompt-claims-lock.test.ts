import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { claimFile, claimReplay } from "../../../lib/store/prompt-claims.ts";
import { promptKey } from "../../../lib/restore/prompt-replay.ts";
import { fakeDeps } from "../../helpers/memfs-deps.ts";

// The run lock's name is a row of the own-paths table (state/claimed-<hash>.json): something that
// is no regular file there is no restore's lock, whatever its target's age.

const FILE = "/home/u/proj/.workflow_artifacts/memory/pending-prompt-s1.txt";
const entry = (n: number, text: string) => ({
  n,
  text,
  timestamp: `2026-12-03T06:0${n}:00Z`,
  nonReplayable: false,
});
const PICK = { replay: [entry(1, "migrate the users table"), entry(2, "then deploy")], edit: null };
const B = "bbbbbbbb-0000-4000-8000-000000000002";

describe("the run lock of a restore claiming held prompts", () => {
  it("a symlink at the lock, to a file written just now, is removed, not waited on: both prompts are claimed", () => {
    const deps = fakeDeps({ now: "2026-12-03T07:00:00Z" });
    const lock = claimFile(`${deps.home}/.claude`, FILE, "claiming");
    deps.vol.mkdirSync(path.dirname(lock), { recursive: true });
    deps.vol.writeFileSync("/home/u/.bashrc", "fresh\n");
    deps.touch("/home/u/.bashrc", "2026-12-03T07:00:00Z");
    deps.vol.symlinkSync("/home/u/.bashrc", lock);
    const got = claimReplay(deps, FILE, PICK, promptKey, B);
    expect(got.replay).toEqual(PICK.replay);
    expect(got.warning).toBeNull();
    expect(deps.vol.readFileSync("/home/u/.bashrc", "utf8")).toBe("fresh\n");
    expect(deps.fs.existsSync(lock)).toBe(false);
  });

  it("a regular lock written just now still holds the prompts off", () => {
    const deps = fakeDeps({ now: "2026-12-03T07:00:00Z" });
    const lock = claimFile(`${deps.home}/.claude`, FILE, "claiming");
    deps.vol.mkdirSync(path.dirname(lock), { recursive: true });
    deps.vol.writeFileSync(lock, `${JSON.stringify({ by: "aaaaaaaa-1", at: "x" })}\n`);
    deps.touch(lock, "2026-12-03T07:00:00Z");
    expect(claimReplay(deps, FILE, PICK, promptKey, B).replay).toEqual([]);
  });
});
