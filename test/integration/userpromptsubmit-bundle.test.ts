import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIST, runBundle } from "../helpers/run-bundle.ts";
import { transcriptWithTokens, workSessionLines } from "../helpers/transcripts.ts";
import { parseCheckpoint } from "../../lib/store/checkpoint-parse.ts";

let tmp: string;
let hook: string;
let home: string;
let project: string;
const SID = "0b6c8f9a-2222-4c3d-8e9f-000000000002";

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-ups-"));
  // The bundle alone, in an empty folder: no node_modules anywhere above it.
  hook = path.join(tmp, "bin", "userpromptsubmit.cjs");
  fs.mkdirSync(path.dirname(hook));
  fs.copyFileSync(path.join(DIST, "hooks", "userpromptsubmit.cjs"), hook);
  home = path.join(tmp, "home");
  project = path.join(home, "proj");
  fs.mkdirSync(path.join(project, ".git"), { recursive: true });
  fs.writeFileSync(path.join(project, ".git", "HEAD"), "ref: refs/heads/main\n");
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function payload(tokens: number, prompt = "run the tests", sid = SID): string {
  const transcript = path.join(home, ".claude", "projects", "-proj", `${sid}.jsonl`);
  fs.mkdirSync(path.dirname(transcript), { recursive: true });
  fs.writeFileSync(transcript, transcriptWithTokens(tokens));
  // Field for field what Claude Code 2.1.x sends (docs/claude-code-versions.md, "Hook payloads").
  return JSON.stringify({
    session_id: sid,
    prompt_id: "550e8400-e29b-41d4-a716-446655440000",
    transcript_path: transcript,
    cwd: project,
    permission_mode: "default",
    hook_event_name: "UserPromptSubmit",
    prompt,
  });
}

// A known window: the block tier holds prompts only on one (on a guess it advises, tested below).
const env = () => ({ HOME: home, QUOIN_CONTEXT_WINDOW: "200000" });

describe("the built UserPromptSubmit hook", () => {
  it("is silent below the advisory band and exits 0", () => {
    // A project of its own: the other tests here leave a memory folder in `project`.
    const quiet = path.join(home, "quiet-proj");
    fs.mkdirSync(path.join(quiet, ".git"), { recursive: true });
    fs.writeFileSync(path.join(quiet, ".git", "HEAD"), "ref: refs/heads/main\n");
    const input = JSON.stringify({ ...JSON.parse(payload(50_000)), cwd: quiet });
    const r = runBundle(hook, [], { input, env: env() });
    expect(r).toMatchObject({ status: 0, stdout: "" });
    // A plain prompt in a project without a memory folder writes nothing: git status stays clean.
    expect(fs.existsSync(path.join(quiet, ".workflow_artifacts"))).toBe(false);
  });

  it("prints one JSON advisory in the band", () => {
    const r = runBundle(hook, [], { input: payload(130_000), env: env() });
    expect(r.status).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer.hookSpecificOutput.hookEventName).toBe("UserPromptSubmit");
    expect(answer.hookSpecificOutput.additionalContext).toContain("context 130k of 167k (77.8%)");
    expect(r.stdout.trim().split("\n")).toHaveLength(1);
  });

  it("blocks at the top tier only after both files are on disk", () => {
    const r = runBundle(hook, [], {
      input: payload(165_000, "deploy it", "0b6c8f9a-2222-4c3d-8e9f-00000000000b"),
      env: env(),
    });
    const answer = JSON.parse(r.stdout);
    expect(answer.decision).toBe("block");
    const files = [...answer.reason.matchAll(/(\/\S+?\.(?:txt|md))/g)].map(
      (m: RegExpMatchArray) => m[1]!,
    );
    expect(files).toHaveLength(2);
    for (const f of files) expect(fs.existsSync(f)).toBe(true);
  });

  it("on a guessed window (no record, no setting; claude-opus-4-6 may run with 1M) the top tier advises and holds nothing", () => {
    const sid = "0b6c8f9a-2222-4c3d-8e9f-00000000000e";
    const r = runBundle(hook, [], {
      input: payload(165_000, "deploy it", sid),
      env: { HOME: home },
    });
    const answer = JSON.parse(r.stdout);
    expect(answer.decision).toBeUndefined();
    expect(answer.hookSpecificOutput.additionalContext).toContain("context 165k of 167k");
    expect(
      fs.existsSync(path.join(project, ".workflow_artifacts/memory", `pending-prompt-${sid}.txt`)),
    ).toBe(false);
  });

  it.each([
    ["not JSON", "hello there"],
    [
      "wrong types",
      JSON.stringify({ session_id: 12, hook_event_name: "UserPromptSubmit", prompt: ["x"] }),
    ],
    ["missing fields", JSON.stringify({ hook_event_name: "UserPromptSubmit" })],
    ["empty stdin", ""],
    ["10 MB of noise", Buffer.alloc(10 * 1024 * 1024, 0x61)],
    ["binary", Buffer.from([0, 159, 146, 150, 255, 10, 0])],
  ])("fails open on %s: exit 0, no stdout", (_what, input) => {
    const r = runBundle(hook, [], { input, env: env(), cwd: project });
    expect(r).toMatchObject({ status: 0, stdout: "" });
  });

  it("logs a failure to the hook log in the config folder, in a project that uses quoin", () => {
    fs.mkdirSync(path.join(project, ".workflow_artifacts/memory"), { recursive: true });
    runBundle(hook, [], { input: "garbage", env: env(), cwd: project });
    const wrongTypes = { session_id: 12, hook_event_name: "UserPromptSubmit", prompt: ["x"] };
    runBundle(hook, [], { input: JSON.stringify(wrongTypes), env: env(), cwd: project });
    const log = fs.readFileSync(
      path.join(env().HOME as string, ".claude/quoin-checkpoint/logs/hooks.log"),
      "utf8",
    );
    expect(log).toMatch(
      /^\S+Z UserPromptSubmit: UserPromptSubmit stdin is not JSON \(got "garbage"\); expected the hook payload object \(in \S+\)$/m,
    );
    expect(log).toMatch(/UserPromptSubmit stdin: session_id: expected string \(in \S+\)$/m);
    expect(fs.existsSync(path.join(project, ".workflow_artifacts/memory/logs"))).toBe(false);
  });

  it("survives a missing transcript file", () => {
    const input = JSON.stringify({
      ...JSON.parse(payload(1)),
      transcript_path: path.join(tmp, "gone.jsonl"),
    });
    expect(runBundle(hook, [], { input, env: env() })).toMatchObject({ status: 0, stdout: "" });
  });
});

describe("the block tier's forced save carries the digest without the hook loading it", () => {
  it("the prompt hook's bundle holds no transcript digest code; the precompact bundle does", () => {
    const marks = (file: string) =>
      ["TaskCreate", "NotebookEdit", "queue-operation"].filter((m) =>
        fs.readFileSync(path.join(DIST, "hooks", file), "utf8").includes(m),
      );
    expect(marks("userpromptsubmit.cjs")).toEqual([]);
    expect(marks("precompact.cjs")).toEqual(["TaskCreate", "NotebookEdit", "queue-operation"]);
  });

  it("in the installed layout (engine beside hooks/) the forced checkpoint has the working set, todos and requests", () => {
    const sid = "0b6c8f9a-2222-4c3d-8e9f-00000000000c";
    const transcript = path.join(home, ".claude", "projects", "-proj", `${sid}.jsonl`);
    fs.mkdirSync(path.dirname(transcript), { recursive: true });
    fs.writeFileSync(transcript, `${workSessionLines(project, 165_000).join("\n")}\n`);
    const input = JSON.stringify({
      session_id: sid,
      transcript_path: transcript,
      cwd: project,
      hook_event_name: "UserPromptSubmit",
      prompt: "deploy it",
    });
    const r = runBundle(path.join(DIST, "hooks", "userpromptsubmit.cjs"), [], {
      input,
      env: env(),
    });
    const answer = JSON.parse(r.stdout);
    expect(answer.decision).toBe("block");
    const checkpoint = fs
      .readFileSync(
        path.join(project, ".workflow_artifacts/memory", `pending-restore-${sid}.txt`),
        "utf8",
      )
      .trim();
    const p = parseCheckpoint(fs.readFileSync(checkpoint, "utf8"));
    expect(p.status).toBe("checkpoint save (forced: context at the block tier)");
    expect(p.digest.changed.map((f) => f.path)).toEqual(["lib/csv-export.ts"]);
    expect(p.digest.todos).toHaveLength(2);
    expect(p.digest.requests.at(-1)?.text).toBe("now wire the download button");
    expect(p.task).toBe("add-csv-export-to-the-report");
  });

  it("alone (no engine beside it) it still holds the place with a skeleton that says the digest is missing", () => {
    const r = runBundle(hook, [], {
      input: payload(165_000, "deploy it", "0b6c8f9a-2222-4c3d-8e9f-00000000000d"),
      env: env(),
    });
    expect(JSON.parse(r.stdout).decision).toBe("block");
    const checkpoint = fs
      .readFileSync(
        path.join(
          project,
          ".workflow_artifacts/memory",
          "pending-restore-0b6c8f9a-2222-4c3d-8e9f-00000000000d.txt",
        ),
        "utf8",
      )
      .trim();
    expect(fs.readFileSync(checkpoint, "utf8")).toContain("transcript digest not written");
  });
});
