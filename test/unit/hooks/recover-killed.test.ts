import { describe, expect, it } from "vitest";
import { transcriptDir } from "../../../lib/core/project-hash.ts";
import { handleSessionStart } from "../../../lib/hooks/session-start.ts";
import { recoverKilledSession } from "../../../lib/hooks/recover-killed.ts";
import { RECOVERED_NOTE } from "../../../lib/notes/start-notes.ts";
import { readKnobs } from "../../../lib/core/knobs.ts";
import { writeRegistry } from "../../../lib/store/session-registry.ts";
import {
  CKPTS,
  HOME,
  memWorld,
  NOW,
  OTHER,
  ROOT,
  SID,
  type MemWorld,
} from "../../helpers/save-deps.ts";
import { workSessionLines } from "../../helpers/transcripts.ts";

// A session killed without SessionEnd: its transcript is on disk, no checkpoint after it.
const CONFIG = `${HOME}/.claude`;
const DIR = transcriptDir(CONFIG, ROOT);
const KILLED = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee";
const MIN = 60_000;

function world(ageMs: number, lines = workSessionLines(ROOT)): MemWorld {
  const w = memWorld({ [`${ROOT}/.workflow_artifacts/memory/.keep`]: "" });
  w.write(`${DIR}/${KILLED}.jsonl`, `${lines.join("\n")}\n`, ageMs);
  return w;
}
const recover = (w: MemWorld, starting: string | null = SID) =>
  recoverKilledSession(w.deps, w.paths, starting, ROOT, NOW.getTime());
const checkpoints = (w: MemWorld) => w.files().filter((f) => f.includes("/checkpoints/"));

describe("recovering a killed session at the next start", () => {
  it("a transcript quiet for 40 minutes with no process record and no checkpoint: the snapshot SessionEnd would have written, marked recovered; once", () => {
    const w = world(40 * MIN);
    const r = recover(w);
    expect(r?.sessionId).toBe(KILLED);
    const text = w.fs.readFileSync(r!.checkpoint, "utf8") as string;
    expect(text).toContain("checkpoint save (session end, recovered)");
    expect(text).toContain(RECOVERED_NOTE);
    expect(text).toContain("lib/csv-export.ts");
    expect(recover(w)).toBeNull(); // its checkpoint is now newer than its transcript
    expect(checkpoints(w)).toHaveLength(1);
  });

  it("a recorded process that is dead counts as gone even when the transcript is recent", () => {
    const w = world(2 * MIN);
    writeRegistry(w.deps, CONFIG, "process", KILLED, { pid: 777, start: null, cwd: ROOT });
    expect(recover(w)?.sessionId).toBe(KILLED);
  });

  it("near misses: quiet only 10 minutes with no record, a live process, the starting session's own, older than 7 days, a trivial session", () => {
    expect(recover(world(10 * MIN))).toBeNull();
    const alive = world(40 * MIN);
    writeRegistry(alive.deps, CONFIG, "process", KILLED, { pid: 777, start: null, cwd: ROOT });
    alive.deps.isProcessAlive = () => true;
    expect(recover(alive)).toBeNull();
    expect(recover(world(40 * MIN), KILLED)).toBeNull();
    expect(recover(world(8 * 24 * 60 * MIN))).toBeNull();
    const trivial = world(40 * MIN, [workSessionLines(ROOT)[0]!]);
    expect(recover(trivial)).toBeNull();
    expect(checkpoints(trivial)).toEqual([]);
  });

  it("a checkpoint saved after the transcript's last write: nothing to recover", () => {
    const w = world(40 * MIN);
    w.write(
      `${CKPTS}/2026-11-29-x.md`,
      `## Status\ncheckpoint save (voluntary)\n\n## Session ID\n${KILLED}\n\n## Saved at\n${new Date(NOW.getTime() - 5 * MIN).toISOString().slice(0, 19)}Z\n`,
    );
    expect(recover(w)).toBeNull();
  });

  it("SessionStart at startup names the recovered checkpoint to the model", () => {
    const w = world(40 * MIN);
    const answer = handleSessionStart(
      w.deps,
      { session_id: OTHER, cwd: ROOT, source: "startup", hook_event_name: "SessionStart" } as never,
      readKnobs({}, () => {}),
    );
    const text = JSON.stringify(answer);
    expect(text).toMatch(/checkpoints\/[^"]*\.md/);
    expect(checkpoints(w)).toHaveLength(1);
    expect(text).toContain(checkpoints(w)[0]!.split("/").pop());
  });
});
