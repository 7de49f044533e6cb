import { describe, expect, it } from "vitest";
import { asciiBody } from "../../../lib/core/ascii-text.ts";
import type { SessionStartInput } from "../../../lib/hooks/hook-io.ts";
import { handleSessionStart } from "../../../lib/hooks/session-start.ts";
import {
  awaitClearMarker,
  CLEAR_WAIT_APPEAR_MS,
  CLEAR_WAIT_WRITING_MS,
  clearNotice,
} from "../../../lib/hooks/clear-handoff.ts";
import { runSessionEnd } from "../../../lib/hooks/session-end.ts";
import { renderCheckpoint } from "../../../lib/store/checkpoint-format.ts";
import { NO_ARTIFACTS } from "../../../lib/store/checkpoint-values.ts";
import {
  CKPTS,
  HOME,
  knobs,
  MEM,
  memWorld,
  NOW,
  OTHER,
  ROOT,
  SID,
} from "../../helpers/save-deps.ts";
import {
  editLines,
  replyLine,
  transcriptText,
  userLine,
} from "../../helpers/session-transcript.ts";

// The two SessionStart lines that follow a session-end snapshot: after /clear, and at the next startup.

const STATE = `${HOME}/.claude/quoin-checkpoint/state`;
const NEW = "77777777-7777-7777-7777-777777777777";
const TRANSCRIPT = `${HOME}/.claude/projects/-home-u-proj/${SID}.jsonl`;
const at = (minutesAgo: number) => new Date(NOW.getTime() - minutesAgo * 60_000).toISOString();
const busy = transcriptText([
  userLine(SID, at(50), "fix the parser"),
  editLines(SID, at(48), `${ROOT}/lib/p.ts`),
  userLine(SID, at(30), "and the tests"),
  replyLine(SID, at(29)),
]);

const start = (over: Partial<SessionStartInput>): SessionStartInput => ({
  session_id: NEW,
  cwd: ROOT,
  hook_event_name: "SessionStart",
  source: "startup",
  ...over,
});
const answerText = (a: ReturnType<typeof handleSessionStart>) => ({
  context: a && "hookSpecificOutput" in a ? (a.hookSpecificOutput?.additionalContext ?? "") : "",
  system: a && "systemMessage" in a ? (a.systemMessage ?? "") : "",
});

/** A clock that moves only when the code sleeps. */
function ticking(w: ReturnType<typeof memWorld>): { slept: number[] } {
  let t = NOW.getTime();
  const slept: number[] = [];
  w.deps.now = () => new Date(t);
  w.deps.sleep = (ms) => {
    slept.push(ms);
    t += ms;
  };
  return { slept };
}

describe("/clear: SessionEnd(clear) then SessionStart(clear)", () => {
  it("the new session is told, in context and in one line for the person, and the marker is removed", () => {
    const w = memWorld({ [TRANSCRIPT]: busy });
    const end = runSessionEnd(
      w.deps,
      {
        session_id: SID,
        transcript_path: TRANSCRIPT,
        cwd: ROOT,
        hook_event_name: "SessionEnd",
        reason: "clear",
      },
      { deadlineAt: Infinity },
    );
    if (!end.saved) throw new Error(end.skip);
    const { context, system } = answerText(
      handleSessionStart(w.deps, start({ source: "clear" }), knobs()),
    );
    expect(context).toContain(end.checkpoint);
    expect(context).toContain("/checkpoint --restore");
    expect(system).toBe(
      "[quoin] cleared session saved as 2026-11-29T2107-feat-x.md; /checkpoint --restore brings it back",
    );
    expect(system.split("\n")).toHaveLength(1);
    expect(w.fs.existsSync(`${STATE}/ended-${SID}.json`)).toBe(false);
  });

  it("waits while the marker says writing, boundedly, then reports what it found", () => {
    const w = memWorld();
    const clock = ticking(w);
    w.write(
      `${STATE}/ended-${SID}.json`,
      JSON.stringify({ state: "writing", root: ROOT, at: NOW.toISOString() }),
    );
    const found = awaitClearMarker(w.deps, `${HOME}/.claude`, ROOT, NEW);
    expect(found?.marker.state).toBe("writing");
    const waited = clock.slept.reduce((a, b) => a + b, 0);
    expect(waited).toBeGreaterThanOrEqual(CLEAR_WAIT_WRITING_MS);
    expect(waited).toBeLessThan(CLEAR_WAIT_WRITING_MS + 100);
    expect(clearNotice(w.deps, `${HOME}/.claude`, ROOT, NEW)?.person).toContain("had not finished");
  });

  it("stops waiting as soon as the save is done", () => {
    const w = memWorld({ [`${CKPTS}/2026-11-29T2107-x.md`]: "## Status\nx\n" });
    const clock = ticking(w);
    const file = `${STATE}/ended-${SID}.json`;
    w.write(file, JSON.stringify({ state: "writing", root: ROOT, at: NOW.toISOString() }));
    const sleep = w.deps.sleep!;
    w.deps.sleep = (ms) => {
      sleep(ms);
      if (clock.slept.length === 3)
        w.write(
          file,
          JSON.stringify({
            state: "saved",
            root: ROOT,
            at: NOW.toISOString(),
            checkpoint: `${CKPTS}/2026-11-29T2107-x.md`,
            task: "x",
          }),
        );
    };
    expect(awaitClearMarker(w.deps, `${HOME}/.claude`, ROOT, NEW)?.marker.state).toBe("saved");
    expect(clock.slept).toHaveLength(3);
  });

  it("with no marker at all it waits only briefly and says nothing", () => {
    const w = memWorld();
    const clock = ticking(w);
    expect(handleSessionStart(w.deps, start({ source: "clear" }), knobs())).toBeNull();
    expect(clock.slept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(CLEAR_WAIT_APPEAR_MS + 25);
  });

  it("ignores markers of another project, stale ones, and paths outside checkpoints/", () => {
    const w = memWorld({ "/etc/passwd": "root" });
    ticking(w);
    w.write(
      `${STATE}/ended-${SID}.json`,
      JSON.stringify({
        state: "saved",
        root: "/home/u/other",
        at: NOW.toISOString(),
        checkpoint: `/home/u/other/x.md`,
        task: "x",
      }),
    );
    w.write(
      `${STATE}/ended-${OTHER}.json`,
      JSON.stringify({
        state: "saved",
        root: ROOT,
        at: at(10),
        checkpoint: `${CKPTS}/a.md`,
        task: "x",
      }),
    );
    expect(clearNotice(w.deps, `${HOME}/.claude`, ROOT, NEW)).toBeNull();
    w.write(
      `${STATE}/ended-${OTHER}.json`,
      JSON.stringify({
        state: "saved",
        root: ROOT,
        at: NOW.toISOString(),
        checkpoint: "/etc/passwd",
        task: "x",
      }),
    );
    expect(clearNotice(w.deps, `${HOME}/.claude`, ROOT, NEW)).toBeNull();
  });

  it("a cleared session with nothing new names its still-current checkpoint", () => {
    const prev = `${CKPTS}/2026-11-29T2050-parser.md`;
    const w = memWorld({ [prev]: "## Status\nx\n" });
    w.write(
      `${STATE}/ended-${SID}.json`,
      JSON.stringify({
        state: "skipped",
        why: "unchanged",
        root: ROOT,
        at: NOW.toISOString(),
        checkpoint: prev,
      }),
    );
    expect(
      answerText(handleSessionStart(w.deps, start({ source: "clear" }), knobs())).context,
    ).toContain(prev);
  });
});

describe("startup: the last session's snapshot", () => {
  const snapshot = (sid: string, savedAt: Date, status = "checkpoint save (session end, other)") =>
    renderCheckpoint(
      {
        status,
        currentStage: "",
        task: "parser-fix",
        branch: "feat/x",
        sessionId: sid,
        projectHash: "-home-u-proj",
        savedAt,
        artifacts: NO_ARTIFACTS,
      },
      asciiBody,
    ).text;

  it("names the newest session-end snapshot of another session under a day old", () => {
    const w = memWorld({
      [`${CKPTS}/2026-11-29T1907-parser-fix.md`]: snapshot(
        OTHER,
        new Date(NOW.getTime() - 2 * 3600_000),
      ),
      [`${CKPTS}/2026-11-29T1000-older.md`]: snapshot(
        OTHER,
        new Date(NOW.getTime() - 11 * 3600_000),
      ).replace("parser-fix", "older"),
    });
    const { context, system } = answerText(handleSessionStart(w.deps, start({}), knobs()));
    expect(system).toBe(
      "[quoin] last session, task parser-fix, ended 2h00m ago: /checkpoint --restore to continue",
    );
    expect(context).toContain(`${CKPTS}/2026-11-29T1907-parser-fix.md`);
  });

  it.each<[string, Record<string, string>, Partial<SessionStartInput>]>([
    [
      "older than a day",
      {
        [`${CKPTS}/2026-11-28T2000-parser-fix.md`]: snapshot(
          OTHER,
          new Date(NOW.getTime() - 25 * 3600_000),
        ),
      },
      {},
    ],
    [
      "this session's own",
      {
        [`${CKPTS}/2026-11-29T2000-parser-fix.md`]: snapshot(
          NEW,
          new Date(NOW.getTime() - 3600_000),
        ),
      },
      {},
    ],
    [
      "a curated checkpoint, not a snapshot",
      {
        [`${CKPTS}/2026-11-29T2000-parser-fix.md`]: snapshot(
          OTHER,
          new Date(NOW.getTime() - 3600_000),
          "checkpoint save (voluntary)",
        ),
      },
      {},
    ],
    [
      "not at startup (resume)",
      {
        [`${CKPTS}/2026-11-29T2000-parser-fix.md`]: snapshot(
          OTHER,
          new Date(NOW.getTime() - 3600_000),
        ),
      },
      { source: "resume" },
    ],
  ])("says nothing: %s", (_name, files, over) => {
    const w = memWorld(files);
    expect(handleSessionStart(w.deps, start(over), knobs())).toBeNull();
  });

  it("gives way to a banner", () => {
    const cp = `${CKPTS}/2026-11-29T2000-parser-fix.md`;
    const w = memWorld({
      [cp]: snapshot(OTHER, new Date(NOW.getTime() - 3600_000)),
      [`${MEM}/pending-restore-${OTHER}.txt`]: `${cp}\n`,
    });
    const { context, system } = answerText(handleSessionStart(w.deps, start({}), knobs()));
    expect(context).toContain("Another session");
    expect(context).not.toContain("Last session");
    expect(system).toBe(
      "[quoin] another session left a checkpoint (2026-11-29T2000-parser-fix.md): /checkpoint --restore picks it up",
    );
  });
});
