import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { digestLines } from "../../../lib/context/transcript-digest.ts";
import { looksLikeFile, projectPath } from "../../../lib/context/transcript-digest-files.ts";
import { cutWords } from "../../../lib/core/text-cut.ts";
import { typedText } from "../../../lib/context/transcript-digest-requests.ts";
import {
  coverageByPaths,
  coverageByText,
  cutAtCompaction,
  fileTokens,
} from "../../helpers/summary-oracle.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../../fixtures/transcripts");
const lines = (name: string): string[] =>
  fs
    .readFileSync(path.join(FIXTURES, name), "utf8")
    .split("\n")
    .filter((l) => l !== "");

const SPOTTER = "spotter-4d5611e5-241a-462a-8d15-5122611a9569.jsonl";
const SPOTTER_SID = "4d5611e5-241a-462a-8d15-5122611a9569";
const SPOTTER_ROOT = "/home/USER/projects/spotter-worktrees/spotter-dov";
const VIEWER = "viewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl";

const envelope = (extra: Record<string, unknown>) =>
  JSON.stringify({
    parentUuid: "p",
    isSidechain: false,
    userType: "external",
    cwd: "/repo",
    sessionId: "s1",
    version: "2.1.197",
    timestamp: "2026-11-29T12:00:00.000Z",
    ...extra,
  });
const user = (content: unknown, extra: Record<string, unknown> = {}) =>
  envelope({
    type: "user",
    uuid: `u-${JSON.stringify(content).length}`,
    message: { role: "user", content },
    ...extra,
  });
const toolUse = (
  id: string,
  name: string,
  input: Record<string, unknown>,
  at = "2026-11-29T12:00:00.000Z",
) =>
  envelope({
    type: "assistant",
    uuid: `a-${id}`,
    timestamp: at,
    message: { role: "assistant", content: [{ type: "tool_use", id, name, input }] },
  });
const toolResult = (id: string, text: string, isError = false, toolUseResult: unknown = text) =>
  envelope({
    type: "user",
    uuid: `r-${id}`,
    message: {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: id, content: text, is_error: isError }],
    },
    toolUseResult,
  });
const queue = (operation: string, content?: string) =>
  JSON.stringify({
    type: "queue-operation",
    operation,
    timestamp: "2026-11-29T12:00:00.000Z",
    sessionId: "s1",
    ...(content === undefined ? {} : { content }),
  });

describe("the oracle on the real spotter session cut just before its compaction", () => {
  const { before, summaryText } = cutAtCompaction(lines(SPOTTER));
  const digest = digestLines(before, { projectRoot: SPOTTER_ROOT, sessionId: SPOTTER_SID });

  it("the digest's changed and read files name at least 90 % of the summary's file tokens", () => {
    const tokens = fileTokens(summaryText);
    const cov = coverageByPaths(
      tokens,
      [...digest.changed, ...digest.read].map((f) => f.path),
    );
    // 15 tokens; the one no tool touched is the package highlight.js the summary mentions.
    expect(tokens.length).toBeGreaterThanOrEqual(10);
    expect(cov.missed).toEqual(["highlight.js"]);
    expect(cov.ratio).toBeGreaterThanOrEqual(0.9);
  });

  it("has the first and the newest typed request", () => {
    expect(digest.firstRequest?.text).toMatch(
      /^Work on bead spotter-dov\. Run bd show spotter-dov/,
    );
    expect(digest.requests.at(-1)?.text).toBe("continue");
    expect(digest.requestCount).toBe(2);
    expect(digest.summary).toBeNull();
  });

  it("lists changed files newest first with counts, read-only files apart, relative to the project root", () => {
    expect(digest.changed[0]).toEqual({
      path: "lib/spotter_web/components/transcript_components.ex",
      count: 2,
      lastAt: "2026-02-12T20:29:01.006Z",
    });
    expect(
      digest.changed.find((f) => f.path === "lib/spotter_web/live/session_live.ex")?.count,
    ).toBe(11);
    const readPaths = digest.read.map((f) => f.path);
    expect(readPaths).toContain("priv/static/assets/spotter.css"); // a Grep `path` naming a file
    expect(readPaths).not.toContain("lib/spotter_web/live/session_live.ex"); // changed, so not in read
    expect([...digest.changed, ...digest.read].every((f) => !f.path.startsWith("/"))).toBe(true);
  });
});

describe("oracle helper", () => {
  it("finds file tokens, drops a leading / and never takes .jsonl", () => {
    expect(fileTokens("see `/lib/a.ex`, mix.exs and x.jsonl, then app.js. And Node.js")).toEqual([
      "Node.js",
      "app.js",
      "lib/a.ex",
      "mix.exs",
    ]);
  });

  it("names a token by a path's tail at a / boundary only", () => {
    expect(coverageByPaths(["app.js", "b.ts"], ["assets/js/app.js", "xb.ts"]).missed).toEqual([
      "b.ts",
    ]);
    expect(coverageByText(["app.js", "b.ts"], "- assets/js/app.js (2)\n- xb.ts").missed).toEqual([
      "b.ts",
    ]);
  });
});

describe("real fixtures", () => {
  it("viewer-fe5e1c67: every todo of its last main-chain TodoWrite, and no subagent's files", () => {
    const all = lines(VIEWER);
    const lastTodoWrite = all
      .map((l) => JSON.parse(l) as { isSidechain?: boolean; message?: { content?: unknown } })
      .filter((e) => e.isSidechain !== true && Array.isArray(e.message?.content))
      .flatMap(
        (e) =>
          e.message!.content as {
            type?: string;
            name?: string;
            input?: { todos?: { content: string; status: string }[] };
          }[],
      )
      .filter((b) => b.type === "tool_use" && b.name === "TodoWrite")
      .at(-1)!;
    const digest = digestLines(all, { projectRoot: "/path/to/Demo" });
    expect(digest.todos).toEqual(
      lastTodoWrite.input!.todos!.map((t) => ({ content: t.content, status: t.status })),
    );
    expect(digest.todos).toHaveLength(5);
    // The Task subagents (isSidechain) wrote the components; the main chain only CLAUDE.md.
    expect(digest.changed.map((f) => f.path)).toEqual(["CLAUDE.md"]);
    // A slash command with arguments is a request; the sidechain's prompts are not.
    expect(digest.requests.map((r) => r.text)).toEqual([
      "/orchestrator create TODO app by Next.js",
      "Thanks! Please update CLAUDE.md for current changes",
    ]);
  });

  it("spotter-tool_heavy: a client command queued then run (/mcp) is not a request, interruptions are not either", () => {
    const digest = digestLines(lines("spotter-tool_heavy.jsonl"), {
      projectRoot: "/home/marco/projects/spotter",
    });
    expect(digest.requests.map((r) => r.text)).toEqual([
      "start phoenix in background",
      "scrolling back in xterm.js still does not work (maybe because outer web catches it)? websearch xterm.js tmux interactions",
    ]);
  });

  it("spotter-short: a Bash call the user rejected is not a failure", () => {
    const digest = digestLines(lines("spotter-short.jsonl"), {
      projectRoot: "/home/marco/projects/spotter",
    });
    expect(digest.failures).toEqual([]);
    expect(digest.requests.map((r) => r.text)).toEqual(["mix phx.server doesnt seem to start"]);
  });

  it("the whole spotter session: the summary pointer after the boundary, failures with their telling line", () => {
    const all = lines(SPOTTER);
    const summaryLine = all.find((l) => l.includes('"isCompactSummary":true'))!;
    const digest = digestLines(all, {
      projectRoot: SPOTTER_ROOT,
      sessionId: SPOTTER_SID,
      transcriptPath: "/t.jsonl",
    });
    expect(digest.summary).toEqual({
      transcript: "/t.jsonl",
      uuid: (JSON.parse(summaryLine) as { uuid: string }).uuid,
    });
    // Every failure was settled later (the push by `git push --set-upstream origin spotter-dov`).
    expect(digest.failures).toEqual([]);
    expect(digest.fixed[0]).toMatchObject({
      command: "git push 2>&1",
      error: "fatal: The current branch spotter-dov has no upstream branch.",
      at: "2026-02-12T21:03:04.517Z",
    });
    expect(digest.fixed.at(-1)!.error).toMatch(/^Pre-commit validation failed/);
    expect(digest.fixed.map((f) => f.error)).toContain(
      "The following paths are ignored by one of your .gitignore files:",
    );
    // The task-notification queued while busy and later delivered is not a typed request.
    expect(digest.requests.map((r) => r.text)).toEqual([digest.firstRequest!.text, "continue"]);
    expect(digest.lastAt).toBe(JSON.parse(all.at(-1)!).timestamp);
  });

  it("another session's lines in the same file change nothing when the session id is given", () => {
    const own = cutAtCompaction(lines(SPOTTER)).before;
    const mixed = [...lines("spotter-short.jsonl"), ...own, ...lines("spotter-tool_heavy.jsonl")];
    const alone = digestLines(own, { projectRoot: SPOTTER_ROOT, sessionId: SPOTTER_SID });
    expect(digestLines(mixed, { projectRoot: SPOTTER_ROOT, sessionId: SPOTTER_SID })).toEqual(
      alone,
    );
  });
});

describe("typed requests", () => {
  it("counts a prompt queued while the model was busy once, also when it is later written as a user line", () => {
    const d = digestLines(
      [user("go"), queue("enqueue", "add a test"), queue("dequeue"), user("add a test")],
      { projectRoot: "/repo" },
    );
    expect(d.requests.map((r) => r.text)).toEqual(["go", "add a test"]);
    expect(d.requests[1]!.uuid).not.toBeNull();
  });

  it("counts a queued prompt consumed mid-turn (remove) that never becomes a user line", () => {
    const d = digestLines(
      [
        user("go"),
        queue("enqueue", "also check the README"),
        queue("remove", "also check the README"),
      ],
      { projectRoot: "/repo" },
    );
    expect(d.requests.map((r) => r.text)).toEqual(["go", "also check the README"]);
    expect(d.requestCount).toBe(2);
  });

  it("drops queued prompts handed back to the input box (popAll) unless they are sent again", () => {
    const d = digestLines(
      [user("go"), queue("enqueue", "first draft"), queue("popAll"), user("second draft")],
      { projectRoot: "/repo" },
    );
    expect(d.requests.map((r) => r.text)).toEqual(["go", "second draft"]);
  });

  it("skips meta lines, tool results, wrappers, compaction summaries and interruption markers", () => {
    const d = digestLines(
      [
        user("skill body", { isMeta: true }),
        user("This session is being continued...", { isCompactSummary: true }),
        user([{ type: "text", text: "[Request interrupted by user]" }]),
        user("<local-command-stdout>ok</local-command-stdout>"),
        user("<task-notification><task-id>b1</task-id></task-notification>"),
        user(
          "<command-name>/clear</command-name><command-message>clear</command-message><command-args></command-args>",
        ),
        toolResult("t1", "file text"),
        user("real one<system-reminder>hook said</system-reminder>"),
      ],
      { projectRoot: "/repo" },
    );
    expect(d.requests.map((r) => r.text)).toEqual(["real one"]);
  });

  it("2.1.332, real transcript: a /loop wakeup (queued, then written as an injected line) is not a request; the typed -p prompt is", () => {
    const lines = fs
      .readFileSync(
        path.resolve(FIXTURES, "../real-client-transcripts/claude-2.1.332-loop-wakeup.jsonl"),
        "utf8",
      )
      .split("\n")
      .filter(Boolean);
    const wake = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l["wakeupSource"] === "loop_wakeup");
    expect(wake).toMatchObject({ isMeta: true, promptSource: "system", turnOrigin: "scheduled" });
    const d = digestLines(lines, { projectRoot: "/home/USER/proj" });
    expect(d.requests.map((r) => r.text)).toEqual(["start a loop"]);
    expect(d.requestCount).toBe(1);
  });

  it("2.1.332: a /loop or scheduled-task fire (wakeupSource) and a system-injected turn are not requests; typed and -p lines are", () => {
    const d = digestLines(
      [
        user("refactor the parser", { promptSource: "typed", turnOrigin: "human" }),
        user("check the deploy", { promptSource: "sdk", wakeupSource: "loop_wakeup" }),
        user("nightly report", { wakeupSource: "schedule_wakeup", scheduledTaskId: "t1" }),
        user("peer says hi", { promptSource: "system" }),
        user("and the lexer", { promptSource: "sdk", turnOrigin: "sdk" }),
      ],
      { projectRoot: "/repo" },
    );
    expect(d.requests.map((r) => r.text)).toEqual(["refactor the parser", "and the lexer"]);
    expect(d.requestCount).toBe(2);
  });

  it("a sidechain user line is not a request", () => {
    expect(
      digestLines([user("subagent prompt", { isSidechain: true })], { projectRoot: "/repo" })
        .requestCount,
    ).toBe(0);
  });

  it("typedText keeps slash commands with their arguments and cutWords cuts on a word boundary", () => {
    expect(
      typedText(
        "<command-message>x is running</command-message>\n<command-name>/x</command-name>\n<command-args>do it</command-args>",
      ),
    ).toBe("/x do it");
    expect(typedText("/compact keep paths")).toBeNull();
    expect(typedText("/review the diff")).toBe("/review the diff");
    const long = cutWords(`${"word ".repeat(100)}end`, 200);
    expect(long.length).toBeLessThanOrEqual(200);
    expect(long).toMatch(/word\.\.\.$/);
    expect(cutWords("a\n  b", 200)).toBe("a b");
  });
});

describe("working set, todos, failures", () => {
  it("counts only calls whose result was not an error; a call with no result yet counts", () => {
    const d = digestLines(
      [
        toolUse(
          "e1",
          "Edit",
          { file_path: "/repo/a.ts", old_string: "x", new_string: "y" },
          "2026-11-29T12:00:01.000Z",
        ),
        toolResult("e1", "<tool_use_error>File has not been read yet.</tool_use_error>", true),
        toolUse("r1", "Read", { file_path: "/repo/b.ts" }, "2026-11-29T12:00:02.000Z"),
        toolResult("r1", "ok"),
        toolUse(
          "w1",
          "Write",
          { file_path: "/elsewhere/c.md", content: "z" },
          "2026-11-29T12:00:03.000Z",
        ),
        toolUse("g1", "Grep", { pattern: "x", path: "/repo/src" }),
        toolUse("g2", "Grep", { pattern: "x", path: "/repo/lib/d.ex" }, "2026-11-29T12:00:04.000Z"),
        toolUse(
          "n1",
          "NotebookEdit",
          { notebook_path: "/repo/n.ipynb", new_source: "" },
          "2026-11-29T12:00:05.000Z",
        ),
      ],
      { projectRoot: "/repo/" },
    );
    expect(d.changed).toEqual([
      { path: "n.ipynb", count: 1, lastAt: "2026-11-29T12:00:05.000Z" },
      { path: "/elsewhere/c.md", count: 1, lastAt: "2026-11-29T12:00:03.000Z" },
    ]);
    expect(d.read.map((f) => f.path)).toEqual(["lib/d.ex", "b.ts"]);
  });

  it("rebuilds the todo list from TaskCreate/TaskUpdate, pairing each create with the id in its result", () => {
    const d = digestLines(
      [
        toolUse("c1", "TaskCreate", { subject: "Write the parser", description: "d" }),
        toolResult("c1", "Task #1 created successfully: Write the parser", false, {
          task: { id: "1", subject: "Write the parser" },
        }),
        toolUse("c2", "TaskCreate", { subject: "Test it", description: "d" }),
        toolResult("c2", "Task #2 created successfully: Test it", false, "not an object"),
        toolUse("c3", "TaskCreate", { subject: "Scrap this", description: "d" }),
        toolResult("c3", "Task #3 created successfully: Scrap this", false, {
          task: { id: "3", subject: "Scrap this" },
        }),
        toolUse("u1", "TaskUpdate", { taskId: "1", status: "completed" }),
        toolResult("u1", "Updated task #1 status"),
        toolUse(
          "u2",
          "TaskUpdate",
          { taskId: "2", status: "in_progress" },
          "2026-11-29T12:09:00.000Z",
        ),
        toolResult("u2", "Updated task #2 status"),
        toolUse("u3", "TaskUpdate", { taskId: "3", status: "deleted" }, "2026-11-29T12:10:00.000Z"),
        toolResult("u3", "Updated task #3 deleted"),
      ],
      { projectRoot: "/repo" },
    );
    expect(d.todos).toEqual([
      { content: "Write the parser", status: "completed" },
      { content: "Test it", status: "in_progress" },
    ]);
    expect(d.todosAt).toBe("2026-11-29T12:10:00.000Z");
  });

  it("the newer of TodoWrite and the task tools decides the list", () => {
    const write = toolUse("t1", "TodoWrite", {
      todos: [{ content: "old way", status: "pending", activeForm: "x" }],
    });
    const create = toolUse("c1", "TaskCreate", { subject: "new way", description: "d" });
    expect(digestLines([write, create], { projectRoot: "/r" }).todos).toEqual([
      { content: "new way", status: "pending" },
    ]);
    expect(digestLines([create, write], { projectRoot: "/r" }).todos).toEqual([
      { content: "old way", status: "pending" },
    ]);
    expect(digestLines([user("hi")], { projectRoot: "/r" }).todos).toBeNull();
  });

  it("keeps the last five failed Bash commands, oldest first", () => {
    const calls = Array.from({ length: 7 }, (_, i) => [
      toolUse(`b${i}`, "Bash", { command: `make t${i}` }),
      toolResult(`b${i}`, `Exit code 2\nmake: *** t${i} Error 2`, true),
    ]).flat();
    const d = digestLines(calls, { projectRoot: "/r" });
    expect(d.failures.map((f) => f.command)).toEqual([
      "make t2",
      "make t3",
      "make t4",
      "make t5",
      "make t6",
    ]);
    expect(d.failures[0]!.error).toBe("make: *** t2 Error 2");
  });

  it("decides file or folder for a search path by its last segment; paths relative to the root", () => {
    expect(["src/a.ts", "Makefile", "lib/mix.exs"].every(looksLikeFile)).toBe(true);
    expect(["src", "src/", ".github", "src/**/*.ts", "v2"].some(looksLikeFile)).toBe(false);
    expect(projectPath("/repo/x/y.ts", "/repo")).toBe("x/y.ts");
    expect(projectPath("/repository/y.ts", "/repo")).toBe("/repository/y.ts");
    expect(projectPath("./y.ts", "/repo")).toBe("y.ts");
  });

  it("skips garbage and partial lines", () => {
    expect(
      digestLines(["{not json", '{"type":"user"', "", "[]"], { projectRoot: "/r" }).requestCount,
    ).toBe(0);
  });
});
