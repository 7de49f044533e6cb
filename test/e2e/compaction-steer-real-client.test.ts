import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookWorld, MATCHERS } from "./hook-world.ts";
import {
  requestText,
  runClaude,
  startLoopbackModel,
  type LoopbackModel,
  type MessagesBody,
} from "./loopback-model.ts";
import { PROMPT_REENTRY_HEAD, REENTRY_FOLLOWS } from "../../lib/notes/reentry-note.ts";

// Steering the summary and re-injecting what it dropped, under the real client (2.1.197 and
// 2.1.332): a `/compact <focus>` sends the summariser a request that carries the user's focus
// first, then PreCompact's steering text naming the checkpoint it wrote and the exact changed
// paths. The summary is not yet in the transcript at SessionStart(compact); the first prompt after
// the compaction carries only the paths it dropped.

let tmp: string;
let home: string;
let project: string;
let model: LoopbackModel;

const FOCUS = "keep the parser notes";
const KEPT = "src/kept-file.ts";
const DROPPED = "src/dropped-file.ts";

/** The summariser's request: Claude Code asks for an <analysis> then a <summary> block. */
const isCompactionRequest = (body: MessagesBody | undefined) =>
  requestText(body).includes("<summary> block");

// 2.1.332 may end a request with a role "system" message, and after a compaction its user turn
// also holds the PreCompact hook's output (which lists the earlier requests): the script reads
// the last user message and matches a prompt by a text block that is exactly that prompt.
const lastUser = (body: MessagesBody) =>
  (body.messages ?? []).filter((m) => m.role === "user").at(-1)?.content;

function lastIsToolResult(body: MessagesBody): boolean {
  const c = lastUser(body);
  return Array.isArray(c) && c.some((b) => (b as { type?: string }).type === "tool_result");
}

function typed(body: MessagesBody, prompt: string): boolean {
  const c = lastUser(body);
  if (typeof c === "string") return c.trim() === prompt;
  return (
    Array.isArray(c) && c.some((b) => (b as { text?: unknown }).text?.toString().trim() === prompt)
  );
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-e2e-steer-"));
  ({ home, project } = hookWorld(tmp, {
    branch: "feat/steer",
    hooks: {
      SessionStart: MATCHERS.sessionStart,
      UserPromptSubmit: "",
      PreCompact: MATCHERS.preCompact,
    },
  }));
  fs.mkdirSync(path.join(project, "src"), { recursive: true });
  model = await startLoopbackModel((body) => {
    if (isCompactionRequest(body))
      return { kind: "text", text: `<summary>We wrote ${KEPT} and more.</summary>` };
    if (lastIsToolResult(body)) return { kind: "text", text: "written" };
    if (typed(body, "second step"))
      return {
        kind: "tool_use",
        name: "Write",
        input: { file_path: path.join(project, KEPT), content: "export const kept = 1;\n" },
      };
    if (typed(body, "third step"))
      return {
        kind: "tool_use",
        name: "Write",
        input: { file_path: path.join(project, DROPPED), content: "export const dropped = 1;\n" },
      };
    return { kind: "text", text: "noted" };
  });
});
afterAll(async () => {
  await model?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const memory = () => path.join(project, ".workflow_artifacts", "memory");
const ask = (args: string[]) => runClaude({ home, cwd: project, baseUrl: model.url, args });

describe("steering the compaction under the real Claude Code client", () => {
  it("the summariser's request carries the focus, then the steering text with the checkpoint's path; a second /compact of the unchanged session writes no checkpoint", async () => {
    const first = await ask(["first step", "--output-format=json"]);
    expect(first.code).toBe(0);
    const sid = (JSON.parse(first.stdout) as { session_id: string }).session_id;
    for (const p of ["second step", "third step", "fourth step"])
      expect((await ask(["--resume", sid, p, "--allowedTools=Write"])).code).toBe(0);
    expect(fs.existsSync(path.join(project, DROPPED))).toBe(true);

    const compact = await ask(["--resume", sid, `/compact ${FOCUS}`]);
    expect(compact.code).toBe(0);
    const checkpoint = fs
      .readFileSync(path.join(memory(), `pending-restore-${sid}.txt`), "utf8")
      .trim();
    const request = requestText(model.messageBodies().find(isCompactionRequest));
    const steer = request.indexOf(`Checkpoint saved before this compaction: \`${checkpoint}\``);
    expect(steer).toBeGreaterThan(0);
    if (process.env["SHOW_STEER"]) console.log(request.slice(steer - 400, steer + 1500));
    expect(request.indexOf(FOCUS)).toBeGreaterThan(0);
    expect(request.indexOf(FOCUS)).toBeLessThan(steer);
    expect(request).toContain(`Files changed (newest first): \`${DROPPED}\`, \`${KEPT}\``);

    // A second /compact of the unchanged session: PreCompact fires again and writes nothing, and
    // its SessionStart(compact) must not take the first compaction's summary for its own.
    const again = await ask(["--resume", sid, "/compact"]);
    expect(again.code).toBe(0);
    const ckpts = fs.readdirSync(path.join(memory(), "checkpoints"));
    expect(ckpts.filter((f) => f.endsWith("-precompact.md"))).toEqual([path.basename(checkpoint)]);
    expect(
      fs.readFileSync(path.join(home, ".claude", "quoin-checkpoint", "logs", "hooks.log"), "utf8"),
    ).toContain(`PreCompact: nothing new since ${checkpoint}`);

    const after = await ask(["--resume", sid, "what next?"]);
    expect(after.code).toBe(0);
    const last = requestText(model.messageBodies().at(-1));
    expect(last).toContain("what next?");
    // 2.1.197 (and 2.1.332) write the compact_boundary and the summary line only after
    // SessionStart(compact) and PostCompact ran: SessionStart's note names the checkpoint and says
    // the list follows; the first prompt's hook reads the summary and carries only what it dropped.
    expect(last).toContain(`Saved before the compaction: ${checkpoint}\n${REENTRY_FOLLOWS}`);
    const start = last.indexOf(PROMPT_REENTRY_HEAD);
    expect(start).toBeGreaterThan(0);
    const note = last.slice(start, start + 1500);
    if (process.env["SHOW_STEER"]) console.log(note);
    expect(note).toContain(`Saved before the compaction: ${checkpoint}`);
    expect(note).toContain("The summary kept 1 of 2 paths");
    expect(note).toContain(`Newest changed file: ${DROPPED}`);
    expect(note).not.toContain(KEPT);
    expect(note).not.toContain("Newest changed files");
    const transcript = fs
      .readdirSync(path.join(home, ".claude", "projects"), { recursive: true, encoding: "utf8" })
      .find((f) => f.endsWith(`${sid}.jsonl`))!;
    const written = fs.readFileSync(path.join(home, ".claude", "projects", transcript), "utf8");
    expect(written).toContain('"isCompactSummary":true');
  }, 240_000);
});
