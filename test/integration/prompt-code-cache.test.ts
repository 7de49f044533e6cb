import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIST, runBundle } from "../helpers/run-bundle.ts";
import { transcriptWithTokens } from "../helpers/transcripts.ts";

// The prompt hook's file compiles its bundle with V8's code cache, kept in the user's cache folder
// (lib/edge/code-cache.ts). Whatever state that cache is in, the answer is the same, nothing is
// written in the project, and only the owner can read the cache.

let tmp: string;
let hook: string;
let home: string;
let project: string;
const SID = "0b6c8f9a-2222-4c3d-8e9f-000000000077";

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-code-cache-"));
  hook = path.join(tmp, "install", "hooks", "userpromptsubmit.cjs");
  fs.mkdirSync(path.dirname(hook), { recursive: true });
  fs.copyFileSync(path.join(DIST, "hooks", "userpromptsubmit.cjs"), hook);
  home = path.join(tmp, "home");
  project = path.join(home, "proj");
  fs.mkdirSync(path.join(project, ".git"), { recursive: true });
  fs.writeFileSync(path.join(project, ".git", "HEAD"), "ref: refs/heads/main\n");
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function payload(tokens: number): string {
  const transcript = path.join(home, ".claude", "projects", "-proj", `${SID}.jsonl`);
  fs.mkdirSync(path.dirname(transcript), { recursive: true });
  fs.writeFileSync(transcript, transcriptWithTokens(tokens));
  return JSON.stringify({
    session_id: SID,
    transcript_path: transcript,
    cwd: project,
    permission_mode: "default",
    hook_event_name: "UserPromptSubmit",
    prompt: "run the tests",
  });
}

const cacheDir = () => path.join(home, ".cache", "quoin-checkpoint");
const cacheFiles = () =>
  fs.existsSync(cacheDir()) ? fs.readdirSync(cacheDir()).filter((f) => f.endsWith(".v8cache")) : [];
const run = (extraEnv: Record<string, string> = {}) =>
  runBundle(hook, [], {
    input: payload(150_000),
    env: { HOME: home, QUOIN_CONTEXT_WINDOW: "200000", ...extraEnv },
  });

// Each test starts from a cache the first run wrote (they run in any order: --sequence.shuffle).
let first: ReturnType<typeof run>;
function warm(): string {
  fs.rmSync(cacheDir(), { recursive: true, force: true });
  first = run();
  const files = cacheFiles();
  expect(files).toHaveLength(1);
  return path.join(cacheDir(), files[0]!);
}

describe("the prompt hook's code cache", () => {
  it("is written by the first run, owner-only, named for this node, outside the project", () => {
    warm();
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout).hookSpecificOutput.additionalContext).toContain(
      "150k of 167k (89.8%)",
    );
    const files = cacheFiles();
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(
      new RegExp(
        `^userpromptsubmit-[0-9a-f]{8}-${process.version}-${process.arch}-[0-9a-f]{12}\\.v8cache$`,
      ),
    );
    expect(fs.statSync(path.join(cacheDir(), files[0]!)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(cacheDir()).mode & 0o777).toBe(0o700);
    const inProject = fs.readdirSync(project, { recursive: true, encoding: "utf8" });
    expect(inProject.filter((f) => f.includes("v8cache"))).toEqual([]);
  });

  it("is used as it is by the next run, which answers the same", () => {
    const file = warm();
    const bytes = fs.readFileSync(file);
    fs.utimesSync(file, new Date(0), new Date(0));
    const again = run();
    expect(again).toMatchObject({ status: 0, stdout: first.stdout });
    expect(fs.statSync(file).mtimeMs).toBe(0); // accepted: not written again
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
  });

  it("a corrupt cache is refused and replaced; the answer does not change", () => {
    const file = warm();
    fs.writeFileSync(file, "not a V8 code cache");
    const r = run();
    expect(r).toMatchObject({ status: 0, stdout: first.stdout });
    expect(fs.readFileSync(file, "utf8")).not.toBe("not a V8 code cache");
    expect(fs.readdirSync(cacheDir()).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("an upgrade of the same length does not run the old build's cached code, and its cache goes", () => {
    warm();
    const before = cacheFiles();
    expect(before).toHaveLength(1);
    const text = fs.readFileSync(hook, "utf8");
    const hash = /__quoinMainHash="([0-9a-f]{12})"/.exec(text)?.[1];
    expect(hash).toBeDefined();
    // One letter of the advisory changed: same length (V8 checks a cache's source by length only).
    const upgraded = text
      .replace("Suggest to the user:", "Suggest to the useR:")
      .replace(`__quoinMainHash="${hash}"`, `__quoinMainHash="${"0".repeat(12)}"`);
    expect(upgraded.length).toBe(text.length);
    fs.writeFileSync(hook, upgraded);
    try {
      const r = run();
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain(
        "Suggest to the useR:",
      );
      expect(cacheFiles()).toEqual([before[0]!.replace(hash!, "0".repeat(12))]);
    } finally {
      fs.writeFileSync(hook, text);
    }
  });

  it("an unwritable cache folder costs the cache only", () => {
    warm();
    const blocked = path.join(tmp, "blocked");
    fs.writeFileSync(blocked, "a file where the cache folder would go");
    const r = run({ XDG_CACHE_HOME: blocked });
    expect(r).toMatchObject({ status: 0, stdout: first.stdout });
    expect(fs.readFileSync(blocked, "utf8")).toBe("a file where the cache folder would go");
  });

  it("XDG_CACHE_HOME is honoured; without HOME or it, nothing is cached and the hook still answers", () => {
    warm();
    const xdg = path.join(tmp, "xdg");
    expect(run({ XDG_CACHE_HOME: xdg }).stdout).toBe(first.stdout);
    expect(fs.readdirSync(path.join(xdg, "quoin-checkpoint"))).toHaveLength(1);
    const r = runBundle(hook, [], {
      input: payload(150_000),
      env: { QUOIN_CONTEXT_WINDOW: "200000" },
    });
    expect(r.status).toBe(0);
  });
});
