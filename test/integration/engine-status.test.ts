import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIST, FIXTURES, runBundle } from "../helpers/run-bundle.ts";

let tmp: string;
let engine: string;
let home: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-engine-"));
  engine = path.join(tmp, "alone", "quoin-checkpoint.mjs");
  fs.mkdirSync(path.dirname(engine));
  fs.copyFileSync(path.join(DIST, "quoin-checkpoint.mjs"), engine);
  home = path.join(tmp, "home");
  fs.mkdirSync(path.join(home, "proj", ".git"), { recursive: true });
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("quoin-checkpoint status", () => {
  it.each([
    ["spotter-4d5611e5-241a-462a-8d15-5122611a9569.jsonl", { tokens: 106060, window: 200000, limit: 167000, bps: 6350, source: "usage" }],
    ["spotter-short.jsonl", { tokens: 25353, window: 200000, limit: 167000, bps: 1518, source: "usage" }],
    ["spotter-subagent.jsonl", { tokens: 43861, window: 200000, limit: 167000, bps: 2626, source: "usage" }],
    ["spotter-tool_heavy.jsonl", { tokens: 27666, window: 200000, limit: 167000, bps: 1656, source: "usage" }],
    ["viewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl", { tokens: 21552, window: 200000, limit: 167000, bps: 1290, source: "usage" }],
    ["viewer-agent-test-hash-123.jsonl", { tokens: 125, window: 200000, limit: 167000, bps: 7, source: "bytes" }],
  ])("--json on %s prints exactly one object with the README figure", (name, expected) => {
    const r = runBundle(engine, ["status", "--transcript", path.join(FIXTURES, name), "--json"], { env: { HOME: home } });
    expect(r.status).toBe(0);
    expect(r.stdout.endsWith("\n")).toBe(true);
    expect(JSON.parse(r.stdout)).toEqual(expected);
  });

  it("honours a 1M window from QUOIN_CONTEXT_WINDOW", () => {
    const r = runBundle(engine, ["status", "--transcript", path.join(FIXTURES, "spotter-short.jsonl"), "--json"], { env: { HOME: home, QUOIN_CONTEXT_WINDOW: "1000000" } });
    expect(JSON.parse(r.stdout)).toEqual({ tokens: 25353, window: 1000000, limit: 967000, bps: 262, source: "usage" });
  });

  it("prints one readable line with tokens, limit and window", () => {
    const r = runBundle(engine, ["status", "--transcript", path.join(FIXTURES, "spotter-short.jsonl")], { env: { HOME: home } });
    expect(r.stdout).toBe("context 25k of 167k (15.2%) from last reply's usage; window 200k (default)\n");
  });

  it("finds the session's transcript from --session and --cwd", () => {
    const sid = "7d2e4f60-3333-4d4e-9f00-000000000003";
    const dir = path.join(home, ".claude", "projects", path.join(home, "proj").replace(/[^A-Za-z0-9-]/g, "-"));
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(path.join(FIXTURES, "spotter-tool_heavy.jsonl"), path.join(dir, `${sid}.jsonl`));
    const r = runBundle(engine, ["status", "--session", sid, "--cwd", path.join(home, "proj"), "--json"], { env: { HOME: home } });
    expect(JSON.parse(r.stdout).tokens).toBe(27666);
    const newest = runBundle(engine, ["status", "--cwd", path.join(home, "proj"), "--json"], { env: { HOME: home } });
    expect(JSON.parse(newest.stdout).tokens).toBe(27666);
  });

  it("refuses a bad session id in one line with exit 2", () => {
    const r = runBundle(engine, ["status", "--session", "../../etc/x", "--cwd", path.join(home, "proj")], { env: { HOME: home } });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("expected 1-128 characters");
  });

  it("says what is wrong with an unknown command or flag", () => {
    expect(runBundle(engine, ["nope"], { env: { HOME: home } })).toMatchObject({ status: 2, stderr: expect.stringContaining("unknown command 'nope'") });
    expect(runBundle(engine, ["status", "--bogus"], { env: { HOME: home } })).toMatchObject({ status: 2, stderr: expect.stringContaining("--bogus") });
  });
});

describe("quoin-checkpoint statusline", () => {
  const sid = "9a8b7c6d-4444-4e5f-8a9b-000000000004";
  const input = (size: number | null, usage: Record<string, number> | null) =>
    JSON.stringify({
      session_id: sid,
      transcript_path: path.join(FIXTURES, "spotter-short.jsonl"),
      cwd: path.join(home, "proj"),
      model: { id: "claude-opus-4-8", display_name: "Opus" },
      workspace: { current_dir: path.join(home, "proj"), project_dir: path.join(home, "proj") },
      context_window: { total_input_tokens: 1, total_output_tokens: 1, context_window_size: size, current_usage: usage },
    });

  it("records the window for the hooks and prints a gauge with tokens and the limit", () => {
    const r = runBundle(engine, ["statusline"], { input: input(1000000, { input_tokens: 5, cache_creation_input_tokens: 1000, cache_read_input_tokens: 200000, output_tokens: 9 }), env: { HOME: home } });
    expect(r).toMatchObject({ status: 0, stdout: "[Opus] ctx 201k of 967k (20.8%)\n" });
    // Per-session state outside the repository: the status line writes nothing into the project.
    const recorded = JSON.parse(fs.readFileSync(path.join(home, ".claude", "quoin-checkpoint", "state", `window-${sid}.json`), "utf8"));
    expect(recorded).toMatchObject({ context_window_size: 1000000, model: "claude-opus-4-8", recorded_at: expect.stringMatching(/Z$/) });
    expect(fs.existsSync(path.join(home, "proj", ".workflow_artifacts"))).toBe(false);
  });

  it("reads the transcript when current_usage is null (before the first reply, after /compact)", () => {
    const r = runBundle(engine, ["statusline"], { input: input(200000, null), env: { HOME: home } });
    expect(r.stdout).toBe("[Opus] ctx 25k of 167k (15.2%)\n");
  });

  it("wraps the user's own status line: theirs first, still printed", () => {
    const r = runBundle(engine, ["statusline", "--wrap", "printf 'mine: '; head -c 12"], { input: input(200000, null), env: { HOME: home } });
    expect(r.stdout).toBe('mine: {"session_id | [Opus] ctx 25k of 167k (15.2%)\n');
  });

  it("never fails loudly on garbage", () => {
    expect(runBundle(engine, ["statusline"], { input: "nope", env: { HOME: home } })).toMatchObject({ status: 0, stdout: "" });
  });
});

describe("engine refusals under --json", () => {
  it("answer with exactly one object on stdout, and the same line on stderr", () => {
    const bad = runBundle(engine, ["status", "--session", "../../etc/x", "--cwd", path.join(home, "proj"), "--json"], { env: { HOME: home } });
    expect(bad.status).toBe(2);
    expect(JSON.parse(bad.stdout)).toEqual({ ok: false, reason: expect.stringContaining("expected 1-128 characters") });
    const flag = runBundle(engine, ["save", "--bogus", "--json"], { env: { HOME: home } });
    expect(flag.status).toBe(2);
    expect(flag.stdout.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse(flag.stdout)).toMatchObject({ ok: false, reason: expect.stringContaining("--bogus") });
  });
});
