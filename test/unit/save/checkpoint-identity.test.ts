import { describe, expect, it } from "vitest";
import { checkpointIdentity } from "../../../lib/save/checkpoint-identity.ts";
import { runSave } from "../../../lib/save/save.ts";
import type { SaveRequest } from "../../../lib/save/save-run.ts";
import { writeSnapshotCheckpoint } from "../../../lib/save/snapshot-save.ts";
import { handleUserPromptSubmit } from "../../../lib/hooks/user-prompt-submit.ts";
import { runPreCompact } from "../../../lib/hooks/pre-compact.ts";
import { runSessionEnd } from "../../../lib/hooks/session-end.ts";
import { parseCheckpoint } from "../../../lib/store/checkpoint-parse.ts";
import {
  CKPTS,
  DAY,
  HOME,
  knobs,
  memWorld,
  NOW,
  OTHER,
  ROOT,
  SESSIONS,
  SID,
  transcriptLine,
  type MemWorld,
} from "../../helpers/save-deps.ts";
import {
  editLines,
  replyLine,
  transcriptText,
  userLine,
} from "../../helpers/session-transcript.ts";

// Two session-state files: the older names this session by its UUID, the newer is another
// session's. Every writer of this session must pick the older one, or the restore gate sees two
// tasks for one session: before, the forced save took the newest file (beta-task) and
// `/checkpoint` the anchored one (alpha-task).
const OURS = `${SESSIONS}/2026-11-27-alpha-task.md`;
const THEIRS = `${SESSIONS}/2026-11-29-beta-task.md`;
const TRANSCRIPT = `${HOME}/.claude/projects/-home-u-proj/${SID}.jsonl`;
const at = (minutesAgo: number) => new Date(NOW.getTime() - minutesAgo * 60_000).toISOString();

function world(): MemWorld {
  const w = memWorld({
    [TRANSCRIPT]: `${transcriptText([
      userLine(SID, at(50), "fix the parser bug in lib/parse.ts"),
      editLines(SID, at(48), `${ROOT}/lib/parse.ts`),
      replyLine(SID, at(47)),
    ])}\n${transcriptLine(160_000, at(46))}`,
  });
  w.write(OURS, `# Session\n\n## Cost\n- Session UUID: ${SID}\n`, 2 * DAY);
  w.write(THEIRS, `# Session\n\n## Cost\n- Session UUID: ${OTHER}\n`, 60_000);
  return w;
}

const taskOf = (w: MemWorld, checkpoint: string) =>
  parseCheckpoint(w.fs.readFileSync(checkpoint, "utf8") as string).task;

function checkpointSave(w: MemWorld, over: Partial<SaveRequest> = {}): string {
  const out = runSave(w.deps, {
    paths: w.paths,
    launchCwd: ROOT,
    sessionId: SID,
    mode: "restore",
    noCleanup: true,
    transcriptPath: TRANSCRIPT,
    knobs: knobs(),
    blockers: [],
    nextUp: [],
    completed: [],
    notes: [],
    ...over,
  });
  if (!out.ok || !out.checkpoint) throw new Error("expected a checkpoint");
  return out.checkpoint;
}

function forcedSave(w: MemWorld, throughEngine: boolean): string {
  const answer = handleUserPromptSubmit(
    w.deps,
    {
      session_id: SID,
      transcript_path: TRANSCRIPT,
      cwd: ROOT,
      hook_event_name: "UserPromptSubmit",
      prompt: "and the tests",
    },
    knobs(),
    // The engine's `snapshot --kind forced` runs writeSnapshotCheckpoint (cli/commands/snapshot.ts).
    throughEngine
      ? { forcedSave: (req) => writeSnapshotCheckpoint(w.deps, { ...req, digest: undefined }) }
      : {},
  );
  expect(answer).toMatchObject({ decision: "block" });
  const sentinel = `${w.paths.memory}/pending-restore-${SID}.txt`;
  return (w.fs.readFileSync(sentinel, "utf8") as string).trim();
}

describe("checkpoint identity: one session, one task, whichever writer runs", () => {
  it.each([
    ["through the engine's snapshot", true],
    ["as the prompt hook's own skeleton", false],
  ])(
    "a forced save (%s) and a /checkpoint save name the session-state file of this session",
    (_how, engine) => {
      const w = world();
      const forced = forcedSave(w, engine);
      const saved = checkpointSave(w);
      expect([taskOf(w, forced), taskOf(w, saved)]).toEqual(["alpha-task", "alpha-task"]);
      expect(parseCheckpoint(w.fs.readFileSync(forced, "utf8") as string).artifacts).toMatchObject({
        sessionState: OURS,
        sessionStateResolution: "uuid-anchor",
      });
    },
  );

  it("precompact and session end name the same task as /checkpoint", () => {
    const pre = world();
    const out = runPreCompact(pre.deps, {
      session_id: SID,
      transcript_path: TRANSCRIPT,
      cwd: ROOT,
      hook_event_name: "PreCompact",
      trigger: "auto",
      custom_instructions: "",
    });
    if (!out.saved) throw new Error(out.reason);
    expect(out.result.checkpoint).toBe(`${CKPTS}/2026-11-29-alpha-task-precompact.md`);

    const end = world();
    const ended = runSessionEnd(
      end.deps,
      {
        session_id: SID,
        transcript_path: TRANSCRIPT,
        cwd: ROOT,
        hook_event_name: "SessionEnd",
        reason: "other",
      },
      { deadlineAt: NOW.getTime() + 60_000 },
    );
    if (!ended.saved) throw new Error(`session end skipped: ${JSON.stringify(ended)}`);
    expect(taskOf(end, ended.checkpoint)).toBe("alpha-task");
  });

  it("the newest session-state file when none names this session; --task wins over both", () => {
    const w = world();
    w.write(OURS, "# Session\n\nno anchor here\n", 2 * DAY);
    const id = checkpointIdentity(w.deps, w.paths, { sessionId: SID });
    expect(id).toMatchObject({ task: "beta-task", taskSource: "session-state", branch: "feat/x" });
    expect(id.sessionState).toMatchObject({ file: THEIRS, resolution: "mtime-fallback" });
    expect(checkpointIdentity(w.deps, w.paths, { sessionId: SID, task: "Lexer" })).toMatchObject({
      task: "lexer",
      taskSource: "given",
      taskWarning: expect.stringContaining("reduced to 'lexer'"),
    });
  });

  it("without an anchor, only a session-state file within QUOIN_SESSION_FALLBACK_WINDOW; the anchor ignores it", () => {
    const w = world();
    w.write(OURS, "# Session\n\nno anchor here\n", 9 * DAY);
    w.write(THEIRS, "# Session\n\nno anchor either\n", 8 * DAY);
    const id = checkpointIdentity(w.deps, w.paths, { sessionId: SID });
    expect(id).toMatchObject({ task: "feat-x", taskSource: "branch" });
    expect(id.sessionState).toEqual({
      file: null,
      resolution: null,
      messages: [
        "[checkpoint] WARNING: no session-state file changed within QUOIN_SESSION_FALLBACK_WINDOW (7 days); none used",
      ],
    });
    const wide = { ...w.deps, env: { QUOIN_SESSION_FALLBACK_WINDOW: "8.5" } };
    expect(checkpointIdentity(wide, w.paths, { sessionId: SID }).sessionState).toMatchObject({
      file: THEIRS,
      resolution: "mtime-fallback",
    });
    w.write(OURS, `# Session\n\n- Session UUID: ${SID}\n`, 30 * DAY);
    expect(checkpointIdentity(w.deps, w.paths, { sessionId: SID })).toMatchObject({
      task: "alpha-task",
      sessionState: { file: OURS, resolution: "uuid-anchor" },
    });
  });
});
