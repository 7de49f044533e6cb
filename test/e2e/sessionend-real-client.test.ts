import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCheckpoint } from "../../lib/store/checkpoint-format.ts";
import { requestText, runClaude, startLoopbackModel, type LoopbackModel, type Responder } from "./loopback-model.ts";
import { installFromDist, scriptedCommands, tempProject } from "./skill-driver.ts";

// The SessionEnd hook under the real client, installed by the real installer: two `claude -p`
// turns of one session leave a session-end snapshot that a new session's /checkpoint --restore
// offers; a real /clear (`claude -p --resume <sid> /clear`: SessionEnd(clear) for the old id, then
// SessionStart(clear) with a new one, as FACTS.md section 2 found) is saved and announced.

let home = "";
let project = "";
let model: LoopbackModel | undefined;
let sid = "";

const memory = () => path.join(project, ".workflow_artifacts", "memory");
/** checkpoints/*.md, oldest first (mtime: two saves in one minute differ only by a -2 suffix) */
const checkpoints = () => (existsSync(path.join(memory(), "checkpoints")) ? readdirSync(path.join(memory(), "checkpoints"))
        .filter((n) => n.endsWith(".md"))
        .sort((a, b) => statSync(path.join(memory(), "checkpoints", a)).mtimeMs - statSync(path.join(memory(), "checkpoints", b)).mtimeMs)
    : []);

/** Plain turns: the model writes notes.md when asked (once), else says ok. */
const worker: Responder = (body) => {
  // NOTE: the newest user message (this client may append a system message after it).
  const asked = JSON.stringify([...(body.messages ?? [])].reverse().find((m) => m.role === "user")?.content ?? "");
  if (asked.includes("write the notes file") && !asked.includes("tool_result")) {
    return { kind: "tool_use", name: "Write", input: { file_path: path.join(project, "notes.md"), content: "parser notes\n" } };
  }
  return { kind: "text", text: "ok" };
};

async function withModel<T>(responder: Responder, run: (m: LoopbackModel) => Promise<T>): Promise<T> {
  model = await startLoopbackModel(responder);
  try {
    return await run(model);
  } finally {
    await model.close();
    model = undefined;
  }
}

// NOTE: a long deadline of the hook's own (the client still sends SIGTERM at 1.5 s, which the hook
// outlives to finish its write): on a loaded test machine the 1.2 s default would turn these into
// timing tests, which belong to `npm run bench` alone.
const claude = (m: LoopbackModel, args: string[]) =>
  runClaude({ home, cwd: project, baseUrl: m.url, args, timeoutMs: 120_000, env: { QUOIN_SESSIONEND_DEADLINE_MS: "10000" } });

describe("e2e: SessionEnd under the real client", { timeout: 240_000 }, () => {
  beforeAll(() => {
    ({ home, project } = tempProject("quoin-e2e-sessionend-"));
    installFromDist({ home, project }, "user");
    const settings = JSON.parse(readFileSync(path.join(home, ".claude", "settings.json"), "utf8"));
    expect(settings.hooks.SessionEnd[0].hooks[0].timeout).toBeUndefined();
  });
  afterAll(async () => model?.close());

  it("two -p turns of one session (--resume): each exit with something new leaves a session-end snapshot, never over the last", async () => {
    await withModel(worker, async (m) => {
      const first = await claude(m, ["please write the notes file for the parser", "--output-format=json", "--permission-mode=acceptEdits"]);
      expect(first.code).toBe(0);
      sid = (JSON.parse(first.stdout) as { session_id: string }).session_id;
      expect(readFileSync(path.join(project, "notes.md"), "utf8")).toBe("parser notes\n");
      // One request, but a file changed: not trivial, so the first exit already saved.
      const afterFirst = checkpoints();
      expect(afterFirst).toHaveLength(1);
      const second = await claude(m, ["--resume", sid, "now add the tests for it"]);
      expect(second.code).toBe(0);
    });
    const names = checkpoints();
    // A new request since the first snapshot: a second one, never over the first.
    expect(names).toHaveLength(2);
    const newest = parseCheckpoint(readFileSync(path.join(memory(), "checkpoints", names.at(-1)!), "utf8"));
    expect(newest.status).toBe("checkpoint save (session end, other)");
    expect(newest.sessionId).toBe(sid);
    expect(newest.intent).toBe("(newest request) now add the tests for it");
    // The digest names the file the first turn wrote, relative to the project.
    expect(readFileSync(path.join(memory(), "checkpoints", names.at(-1)!), "utf8")).toMatch(/## Working set[\s\S]*notes\.md/);
    expect(readdirSync(memory()).filter((n) => n.startsWith("pending-restore"))).toEqual([]);
  });

  it("a new session hears of it at startup, and its /checkpoint --restore offers it", async () => {
    const newest = path.join(memory(), "checkpoints", checkpoints().at(-1)!);
    let startupText = "";
    const restore = scriptedCommands((engine, session) => [`${engine} pidfile acquire checkpoint --session ${session}`, `${engine} restore --json --session ${session}`]);
    const run = await withModel(
      (body, i) => {
        startupText ||= requestText(body);
        return restore(body, i);
      },
      (m) => claude(m, ["/checkpoint --restore"]),
    );
    expect(run.code).toBe(0);
    expect(startupText).toContain("Last session, task");
    expect(run.stdout).toContain("RELAY");
    expect(run.stdout).toContain(newest);
  });

  it("a real /clear right after a saved end: nothing new, so no second snapshot; SessionStart(clear) names the current one", async () => {
    const before = checkpoints();
    const run = await withModel(worker, (m) => claude(m, ["--resume", sid, "/clear", "--output-format=stream-json", "--verbose"]));
    expect(run.code).toBe(0);
    expect(checkpoints()).toEqual(before);
    expect(run.stdout).toContain(`cleared session's checkpoint ${before.at(-1)} is current; /checkpoint --restore brings it back`);
  });

  it("a real /clear: SessionEnd(clear) saves the session and SessionStart(clear) of the new id says so", async () => {
    // The earlier snapshots go, so this session has no checkpoint yet: the clear must save it.
    rmSync(path.join(memory(), "checkpoints"), { recursive: true });
    const run = await withModel(worker, (m) => claude(m, ["--resume", sid, "/clear", "--output-format=stream-json", "--verbose"]));
    expect(run.code).toBe(0);
    const [name, ...rest] = checkpoints();
    expect(rest).toEqual([]);
    const saved = parseCheckpoint(readFileSync(path.join(memory(), "checkpoints", name!), "utf8"));
    expect(saved.status).toBe("checkpoint save (session end, clear)");
    expect(saved.sessionId).toBe(sid);
    // SessionStart(clear) found the marker, told the session, and removed it.
    expect(readdirSync(path.join(home, ".claude", "quoin-checkpoint", "state")).filter((n) => n.startsWith("ended-"))).toEqual([]);
    const log = readFileSync(path.join(memory(), "logs", "hooks.log"), "utf8");
    expect(log).toContain(`SessionEnd clear: saved`);
    expect(run.stdout).toContain(`cleared session saved as ${name}`);
  });
});
