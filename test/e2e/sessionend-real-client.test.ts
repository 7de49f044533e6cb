import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCheckpoint } from "../../lib/store/checkpoint-parse.ts";
import {
  requestText,
  runClaude,
  startLoopbackModel,
  type LoopbackModel,
  type Responder,
} from "./loopback-model.ts";
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
const checkpoints = () =>
  existsSync(path.join(memory(), "checkpoints"))
    ? readdirSync(path.join(memory(), "checkpoints"))
        .filter((n) => n.endsWith(".md"))
        .sort(
          (a, b) =>
            statSync(path.join(memory(), "checkpoints", a)).mtimeMs -
            statSync(path.join(memory(), "checkpoints", b)).mtimeMs,
        )
    : [];

/** Plain turns: the model writes notes.md when asked (once), else says ok. */
const worker: Responder = (body) => {
  // NOTE: the newest user message (this client may append a system message after it).
  const asked = JSON.stringify(
    [...(body.messages ?? [])].reverse().find((m) => m.role === "user")?.content ?? "",
  );
  if (asked.includes("write the notes file") && !asked.includes("tool_result")) {
    return {
      kind: "tool_use",
      name: "Write",
      input: { file_path: path.join(project, "notes.md"), content: "parser notes\n" },
    };
  }
  return { kind: "text", text: "ok" };
};

async function withModel<T>(
  responder: Responder,
  run: (m: LoopbackModel) => Promise<T>,
): Promise<T> {
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
  runClaude({
    home,
    cwd: project,
    baseUrl: m.url,
    args,
    timeoutMs: 120_000,
    env: { QUOIN_SESSIONEND_DEADLINE_MS: "10000" },
  });

const readCheckpoint = (name: string) =>
  readFileSync(path.join(memory(), "checkpoints", name), "utf8");

describe("e2e: SessionEnd under the real client", { timeout: 240_000 }, () => {
  // The four client runs build on each other (one session, then a new one, then two /clears), so
  // they all run here, in order, and each \`it\` only reads what its run left: the \`it\`s hold in
  // any order and alone.
  const turns = {
    firstCode: -1 as number | null,
    secondCode: -1 as number | null,
    notes: "",
    afterFirst: [] as string[],
    names: [] as string[],
    newestText: "",
    pending: [] as string[],
  };
  const fresh = { code: -1 as number | null, stdout: "", startupText: "", newest: "" };
  const clearSaved = {
    code: -1 as number | null,
    stdout: "",
    before: [] as string[],
    after: [] as string[],
  };
  const clearNew = {
    code: -1 as number | null,
    stdout: "",
    names: [] as string[],
    text: "",
    markers: [] as string[],
    log: "",
  };

  beforeAll(async () => {
    ({ home, project } = tempProject("quoin-e2e-sessionend-"));
    installFromDist({ home, project }, "user");
    const settings = JSON.parse(readFileSync(path.join(home, ".claude", "settings.json"), "utf8"));
    expect(settings.hooks.SessionEnd[0].hooks[0].timeout).toBeUndefined();

    // 1. two -p turns of one session
    await withModel(worker, async (m) => {
      const first = await claude(m, [
        "please write the notes file for the parser",
        "--output-format=json",
        "--permission-mode=acceptEdits",
      ]);
      turns.firstCode = first.code;
      sid = (JSON.parse(first.stdout) as { session_id: string }).session_id;
      turns.notes = existsSync(path.join(project, "notes.md"))
        ? readFileSync(path.join(project, "notes.md"), "utf8")
        : "";
      turns.afterFirst = checkpoints();
      turns.secondCode = (await claude(m, ["--resume", sid, "now add the tests for it"])).code;
    });
    turns.names = checkpoints();
    turns.newestText = turns.names.length ? readCheckpoint(turns.names.at(-1)!) : "";
    turns.pending = readdirSync(memory()).filter((n) => n.startsWith("pending-restore"));

    // 2. a new session restores
    fresh.newest = path.join(memory(), "checkpoints", checkpoints().at(-1) ?? "");
    const restore = scriptedCommands((engine, session) => [
      `${engine} pidfile acquire checkpoint --session ${session}`,
      `${engine} restore --json --session ${session}`,
    ]);
    const run = await withModel(
      (body, i) => {
        fresh.startupText ||= requestText(body);
        return restore(body, i);
      },
      (m) => claude(m, ["/checkpoint --restore"]),
    );
    Object.assign(fresh, { code: run.code, stdout: run.stdout });

    // 3. a real /clear right after a saved end
    clearSaved.before = checkpoints();
    const cleared = await withModel(worker, (m) =>
      claude(m, ["--resume", sid, "/clear", "--output-format=stream-json", "--verbose"]),
    );
    Object.assign(clearSaved, { code: cleared.code, stdout: cleared.stdout, after: checkpoints() });

    // 4. a real /clear with no checkpoint of the session left
    rmSync(path.join(memory(), "checkpoints"), { recursive: true });
    const again = await withModel(worker, (m) =>
      claude(m, ["--resume", sid, "/clear", "--output-format=stream-json", "--verbose"]),
    );
    clearNew.code = again.code;
    clearNew.stdout = again.stdout;
    clearNew.names = checkpoints();
    clearNew.text = clearNew.names[0] ? readCheckpoint(clearNew.names[0]) : "";
    clearNew.markers = readdirSync(path.join(home, ".claude", "quoin-checkpoint", "state")).filter(
      (n) => n.startsWith("ended-"),
    );
    clearNew.log = readFileSync(
      path.join(home, ".claude", "quoin-checkpoint", "logs", "hooks.log"),
      "utf8",
    );
  }, 240_000);
  afterAll(async () => model?.close());

  it("two -p turns of one session (--resume): each exit with something new leaves a session-end snapshot, never over the last", () => {
    expect(turns.firstCode).toBe(0);
    expect(turns.notes).toBe("parser notes\n");
    // One request, but a file changed: not trivial, so the first exit already saved.
    expect(turns.afterFirst).toHaveLength(1);
    expect(turns.secondCode).toBe(0);
    // A new request since the first snapshot: a second one, never over the first.
    expect(turns.names).toHaveLength(2);
    const newest = parseCheckpoint(turns.newestText);
    expect(newest.status).toBe("checkpoint save (session end, other)");
    expect(newest.sessionId).toBe(sid);
    expect(newest.intent).toBe("(newest request) now add the tests for it");
    // The digest names the file the first turn wrote, relative to the project.
    expect(turns.newestText).toMatch(/## Working set[\s\S]*notes\.md/);
    expect(turns.pending).toEqual([]);
  });

  it("a new session hears of it at startup, and its /checkpoint --restore offers it", () => {
    expect(fresh.code).toBe(0);
    expect(fresh.startupText).toContain("Last session, task");
    expect(fresh.stdout).toContain("RELAY");
    expect(fresh.stdout).toContain(fresh.newest);
  });

  it("a real /clear right after a saved end: nothing new, so no second snapshot; SessionStart(clear) names the current one", () => {
    expect(clearSaved.code).toBe(0);
    expect(clearSaved.after).toEqual(clearSaved.before);
    expect(clearSaved.stdout).toContain(
      `cleared session's checkpoint ${clearSaved.before.at(-1)} is current; /checkpoint --restore brings it back`,
    );
  });

  it("a real /clear: SessionEnd(clear) saves the session and SessionStart(clear) of the new id says so", () => {
    expect(clearNew.code).toBe(0);
    const [name, ...rest] = clearNew.names;
    expect(rest).toEqual([]);
    const saved = parseCheckpoint(clearNew.text);
    expect(saved.status).toBe("checkpoint save (session end, clear)");
    expect(saved.sessionId).toBe(sid);
    // SessionStart(clear) found the marker, told the session, and removed it.
    expect(clearNew.markers).toEqual([]);
    expect(clearNew.log).toContain(`SessionEnd clear: saved`);
    expect(clearNew.stdout).toContain(`cleared session saved as ${name}`);
  });
});
