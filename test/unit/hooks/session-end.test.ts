import { describe, expect, it } from "vitest";
import { asciiBody } from "../../../lib/core/ascii-text.ts";
import { renderCheckpoint } from "../../../lib/store/checkpoint-format.ts";
import { parseCheckpoint } from "../../../lib/store/checkpoint-parse.ts";
import { NO_ARTIFACTS } from "../../../lib/store/checkpoint-values.ts";
import type { SessionEndInput } from "../../../lib/hooks/hook-io.ts";
import { runSessionEnd } from "../../../lib/hooks/session-end.ts";
import { CKPTS, HOME, MEM, memWorld, NOW, ROOT, SID } from "../../helpers/save-deps.ts";
import {
  checkpointTurnLines,
  editLines,
  replyLine,
  todoLines,
  transcriptText,
  userLine,
} from "../../helpers/session-transcript.ts";

const TRANSCRIPT = `${HOME}/.claude/projects/-home-u-proj/${SID}.jsonl`;
const STATE = `${HOME}/.claude/quoin-checkpoint/state`;
const at = (minutesAgo: number) => new Date(NOW.getTime() - minutesAgo * 60_000).toISOString();
const open = { deadlineAt: NOW.getTime() + 60_000 };

const payload = (over: Partial<SessionEndInput> = {}): SessionEndInput => ({
  session_id: SID,
  transcript_path: TRANSCRIPT,
  cwd: ROOT,
  hook_event_name: "SessionEnd",
  reason: "other",
  ...over,
});

const busy = transcriptText([
  userLine(SID, at(50), "fix the parser bug in lib/parse.ts"),
  replyLine(SID, at(49)),
  editLines(SID, at(48), `${ROOT}/lib/parse.ts`),
  todoLines(SID, at(47), [
    { content: "fix parser", status: "in_progress" },
    { content: "add tests", status: "pending" },
  ]),
  userLine(SID, at(30), "now run the tests"),
  replyLine(SID, at(29)),
]);

function previousCheckpoint(savedAt: Date, status = "checkpoint save (voluntary)"): string {
  return renderCheckpoint(
    {
      status,
      currentStage: "",
      task: "parser",
      branch: "feat/x",
      sessionId: SID,
      projectHash: "-home-u-proj",
      savedAt,
      artifacts: NO_ARTIFACTS,
    },
    asciiBody,
  ).text;
}

describe("runSessionEnd: the snapshot", () => {
  it("writes a voluntary-shaped checkpoint with the digest, status naming the reason, no sentinel, mode 0600", () => {
    const w = memWorld({ [TRANSCRIPT]: busy });
    const out = runSessionEnd(w.deps, payload(), open);
    if (!out.saved) throw new Error(`${out.skip}: ${out.detail}`);
    expect(out.checkpoint).toBe(`${CKPTS}/2026-11-29T2107-feat-x.md`);
    const parsed = parseCheckpoint(w.fs.readFileSync(out.checkpoint, "utf8") as string);
    expect(parsed.status).toBe("checkpoint save (session end, other)");
    expect(parsed.sessionId).toBe(SID);
    expect(parsed.intent).toBe("(newest request) now run the tests");
    const text = w.fs.readFileSync(out.checkpoint, "utf8") as string;
    // The digest: both requests, the changed file (relative to the root), the todo list.
    expect(text).toContain("fix the parser bug in lib/parse.ts");
    expect(text).toMatch(/## Working set[\s\S]*lib\/parse\.ts/);
    expect(text).toMatch(/## Todos[\s\S]*fix parser[\s\S]*add tests/);
    expect(parsed.commits).toEqual([]);
    expect(w.fs.statSync(out.checkpoint).mode & 0o777).toBe(0o600);
    expect(w.files().filter((f) => f.includes("pending-restore"))).toEqual([]);
  });

  it.each([
    "clear",
    "resume",
    "logout",
    "prompt_input_exit",
    "other",
    "bypass_permissions_disabled",
    undefined,
  ])("saves for reason %s", (reason) => {
    const w = memWorld({ [TRANSCRIPT]: busy });
    const out = runSessionEnd(w.deps, payload({ reason }), open);
    expect(out.saved).toBe(true);
    if (out.saved)
      expect(parseCheckpoint(w.fs.readFileSync(out.checkpoint, "utf8") as string).status).toBe(
        `checkpoint save (session end, ${reason ?? "unknown"})`,
      );
  });

  it("never overwrites: a second save in the same minute gets -2", () => {
    const w = memWorld({
      [TRANSCRIPT]: busy,
      [`${CKPTS}/2026-11-29T2107-feat-x.md`]: "someone else's",
    });
    const out = runSessionEnd(w.deps, payload(), open);
    expect(out.saved && out.checkpoint).toBe(`${CKPTS}/2026-11-29T2107-feat-x-2.md`);
    expect(w.fs.readFileSync(`${CKPTS}/2026-11-29T2107-feat-x.md`, "utf8")).toBe("someone else's");
  });
});

describe("runSessionEnd: skip rules leave nothing behind", () => {
  const nothingWritten = (w: ReturnType<typeof memWorld>, before: string[]) => {
    expect(w.files()).toEqual(before);
    expect(w.fs.existsSync(MEM)).toBe(false);
  };

  it("trivial: one request, no file changed, no todos", () => {
    const w = memWorld({
      [TRANSCRIPT]: transcriptText([
        userLine(SID, at(5), "what does this repo do?"),
        replyLine(SID, at(4)),
      ]),
    });
    const before = w.files();
    const out = runSessionEnd(w.deps, payload(), open);
    expect(!out.saved && out.skip).toBe("trivial");
    nothingWritten(w, before);
  });

  it("the project is $HOME", () => {
    const w = memWorld({ [TRANSCRIPT]: busy });
    const out = runSessionEnd(w.deps, payload({ cwd: HOME }), open);
    expect(!out.saved && out.skip).toBe("outside-project");
    expect(w.fs.existsSync(`${HOME}/.workflow_artifacts`)).toBe(false);
  });

  it("the transcript is missing, or not given", () => {
    for (const transcript_path of [`${HOME}/.claude/projects/x/gone.jsonl`, undefined]) {
      const w = memWorld();
      const before = w.files();
      const out = runSessionEnd(w.deps, payload({ transcript_path }), open);
      expect(!out.saved && out.skip).toBe("no-transcript");
      nothingWritten(w, before);
    }
  });

  it("nothing new since this session's newest checkpoint, the /checkpoint's own turn included", () => {
    const prev = `${CKPTS}/2026-11-29T2050-parser.md`;
    const transcript = busy + transcriptText([checkpointTurnLines(SID, at(16))]);
    const w = memWorld({ [TRANSCRIPT]: transcript, [prev]: previousCheckpoint(new Date(at(17))) });
    const before = w.files();
    const out = runSessionEnd(w.deps, payload(), open);
    expect(out).toMatchObject({ saved: false, skip: "unchanged", previous: prev });
    expect(w.files()).toEqual(before);
  });

  it("a precompact save of this session counts as its newest checkpoint too", () => {
    const prev = `${CKPTS}/2026-11-29-parser-precompact.md`;
    const w = memWorld({
      [TRANSCRIPT]: busy,
      [prev]: previousCheckpoint(new Date(at(20)), "checkpoint save (precompact, auto trigger)"),
    });
    expect(runSessionEnd(w.deps, payload(), open)).toMatchObject({
      saved: false,
      skip: "unchanged",
    });
  });

  it("another session's checkpoint does not count", () => {
    const w = memWorld({
      [TRANSCRIPT]: busy,
      [`${CKPTS}/2026-11-29T2050-parser.md`]: previousCheckpoint(new Date(at(17))).replace(
        SID,
        "aaaaaaaa-0000-0000-0000-000000000000",
      ),
    });
    expect(runSessionEnd(w.deps, payload(), open).saved).toBe(true);
  });

  it("saves when a request, or a commit, came after that checkpoint", () => {
    const prev = { [`${CKPTS}/2026-11-29T2040-parser.md`]: previousCheckpoint(new Date(at(27))) };
    const later = memWorld({
      [TRANSCRIPT]: busy + transcriptText([userLine(SID, at(10), "and the docs")]),
      ...prev,
    });
    expect(runSessionEnd(later.deps, payload(), open).saved).toBe(true);
    const committed = memWorld(
      { [TRANSCRIPT]: busy, ...prev },
      {
        run: (_c, args) => ({
          status: 0,
          stdout: args.includes("log") ? "abc1234\t2026-11-29T21:00:00Z\tfix parser\n" : "",
          stderr: "",
        }),
      },
    );
    expect(runSessionEnd(committed.deps, payload(), open).saved).toBe(true);
    expect(committed.runs.some((r) => r.args.includes("--since=2026-11-29T20:40:26Z"))).toBe(true);
    // the git-log window since its first request holds no commit of this session's own: a count
    const saved = committed.files().find((f) => f.includes("checkpoints/2026-11-29T2107"));
    const parsed = parseCheckpoint(committed.fs.readFileSync(`${ROOT}/${saved}`, "utf8") as string);
    expect(parsed.commits).toEqual([]);
    expect(parsed.otherCommits).toBe(1);
  });

  it("by content against its own previous snapshot: a request in the same second as that save counts; none, nothing written", () => {
    const w = memWorld({ [TRANSCRIPT]: busy });
    const first = runSessionEnd(w.deps, payload(), open);
    expect(first.saved).toBe(true);
    // `## Saved at` has whole seconds: a --resume turn that starts in the same second is new all the same
    const sameSecond = new Date(NOW.getTime() + 400).toISOString();
    w.fs.writeFileSync(
      TRANSCRIPT,
      busy + transcriptText([userLine(SID, sameSecond, "now add the tests for it")]),
    );
    const second = runSessionEnd(w.deps, payload(), open);
    expect(second).toMatchObject({ saved: true });
    expect(runSessionEnd(w.deps, payload(), open)).toMatchObject({
      saved: false,
      skip: "unchanged",
    });
  });

  it("past its own deadline it writes nothing", () => {
    const w = memWorld({ [TRANSCRIPT]: busy });
    const before = w.files();
    const out = runSessionEnd(w.deps, payload(), { deadlineAt: NOW.getTime() - 1 });
    expect(!out.saved && out.skip).toBe("deadline");
    expect(w.files()).toEqual(before);
  });
});

describe("runSessionEnd: the /clear marker", () => {
  it("clear leaves ended-<sid>.json saying what was saved", () => {
    const w = memWorld({ [TRANSCRIPT]: busy });
    const out = runSessionEnd(w.deps, payload({ reason: "clear" }), open);
    const marker = JSON.parse(w.fs.readFileSync(`${STATE}/ended-${SID}.json`, "utf8") as string);
    expect(marker).toMatchObject({
      state: "saved",
      root: ROOT,
      checkpoint: out.saved ? out.checkpoint : "?",
    });
    expect(w.fs.statSync(`${STATE}/ended-${SID}.json`).mode & 0o777).toBe(0o600);
  });

  it("a skipped clear says so; other reasons leave no marker", () => {
    const w = memWorld({ [TRANSCRIPT]: transcriptText([userLine(SID, at(5), "hi")]) });
    runSessionEnd(w.deps, payload({ reason: "clear" }), open);
    expect(
      JSON.parse(w.fs.readFileSync(`${STATE}/ended-${SID}.json`, "utf8") as string),
    ).toMatchObject({ state: "skipped", why: "trivial" });
    const o = memWorld({ [TRANSCRIPT]: busy });
    runSessionEnd(o.deps, payload({ reason: "logout" }), open);
    expect(o.fs.existsSync(STATE)).toBe(false);
  });
});
