import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIST, FIXTURES, runBundle } from "../helpers/run-bundle.ts";
import { ENGINE_BUNDLE } from "../../lib/install/install-layout.ts";

let tmp: string;
let engine: string;
let home: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-engine-"));
  engine = path.join(tmp, "alone", ENGINE_BUNDLE);
  fs.mkdirSync(path.dirname(engine));
  fs.copyFileSync(path.join(DIST, ENGINE_BUNDLE), engine);
  home = path.join(tmp, "home");
  fs.mkdirSync(path.join(home, "proj", ".git"), { recursive: true });
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("quoin-checkpoint status", () => {
  it.each([
    [
      "spotter-4d5611e5-241a-462a-8d15-5122611a9569.jsonl",
      {
        tokens: 106060,
        window: 200000,
        limit: 167000,
        bps: 6350,
        source: "usage",
        windowSource: "default",
        windowKnown: false,
      },
    ],
    [
      "spotter-short.jsonl",
      {
        tokens: 25353,
        window: 200000,
        limit: 167000,
        bps: 1518,
        source: "usage",
        windowSource: "default",
        windowKnown: false,
      },
    ],
    [
      "spotter-subagent.jsonl",
      {
        tokens: 43861,
        window: 200000,
        limit: 167000,
        bps: 2626,
        source: "usage",
        windowSource: "default",
        windowKnown: false,
      },
    ],
    [
      "spotter-tool_heavy.jsonl",
      {
        tokens: 27666,
        window: 200000,
        limit: 167000,
        bps: 1656,
        source: "usage",
        windowSource: "default",
        windowKnown: false,
      },
    ],
    [
      "viewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl",
      {
        tokens: 21552,
        window: 200000,
        limit: 167000,
        bps: 1290,
        source: "usage",
        windowSource: "default",
        windowKnown: false,
      },
    ],
    [
      "viewer-agent-test-hash-123.jsonl",
      {
        tokens: 125,
        window: 200000,
        limit: 167000,
        bps: 7,
        source: "bytes",
        windowSource: "default",
        windowKnown: false,
      },
    ],
  ])("--json on %s prints exactly one object with the README figure", (name, expected) => {
    const r = runBundle(engine, ["status", "--transcript", path.join(FIXTURES, name), "--json"], {
      env: { HOME: home },
    });
    expect(r.status).toBe(0);
    expect(r.stdout.endsWith("\n")).toBe(true);
    expect(JSON.parse(r.stdout)).toEqual({ ok: true, ...expected });
  });

  it("honours a 1M window from QUOIN_CONTEXT_WINDOW", () => {
    const r = runBundle(
      engine,
      ["status", "--transcript", path.join(FIXTURES, "spotter-short.jsonl"), "--json"],
      { env: { HOME: home, QUOIN_CONTEXT_WINDOW: "1000000" } },
    );
    expect(JSON.parse(r.stdout)).toEqual({
      ok: true,
      tokens: 25353,
      window: 1000000,
      limit: 967000,
      bps: 262,
      source: "usage",
      windowSource: "env",
      windowKnown: true,
    });
  });

  it("prints one readable line with tokens, limit and window", () => {
    const r = runBundle(
      engine,
      ["status", "--transcript", path.join(FIXTURES, "spotter-short.jsonl")],
      { env: { HOME: home } },
    );
    expect(r.stdout).toBe(
      "context 25k of 167k (15.1%) from last reply's usage; window 200k (assumed; claude-opus-4-6 offers 200k or 1M)\n",
    );
  });

  it("finds the session's transcript from --session and --cwd", () => {
    const sid = "7d2e4f60-3333-4d4e-9f00-000000000003";
    const dir = path.join(
      home,
      ".claude",
      "projects",
      path.join(home, "proj").replace(/[^A-Za-z0-9-]/g, "-"),
    );
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(
      path.join(FIXTURES, "spotter-tool_heavy.jsonl"),
      path.join(dir, `${sid}.jsonl`),
    );
    const r = runBundle(
      engine,
      ["status", "--session", sid, "--cwd", path.join(home, "proj"), "--json"],
      { env: { HOME: home } },
    );
    expect(JSON.parse(r.stdout).tokens).toBe(27666);
    const newest = runBundle(engine, ["status", "--cwd", path.join(home, "proj"), "--json"], {
      env: { HOME: home },
    });
    expect(JSON.parse(newest.stdout).tokens).toBe(27666);
  });

  it("refuses a bad session id in one line with exit 2", () => {
    const r = runBundle(
      engine,
      ["status", "--session", "../../etc/x", "--cwd", path.join(home, "proj")],
      { env: { HOME: home } },
    );
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("expected 1-128 characters");
  });

  it("says what is wrong with an unknown command or flag", () => {
    expect(runBundle(engine, ["nope"], { env: { HOME: home } })).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("unknown command nope"),
    });
    expect(runBundle(engine, ["status", "--bogus"], { env: { HOME: home } })).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("--bogus"),
    });
  });
});

describe.each([
  [
    "dist/statusline.cjs",
    (args: string[]) => [path.join(tmp, "alone", "statusline.cjs"), args] as const,
  ],
  [
    "quoin-checkpoint statusline (older installs)",
    (args: string[]) => [engine, ["statusline", ...args]] as const,
  ],
])("status line: %s", (_name, command) => {
  const sid = "9a8b7c6d-4444-4e5f-8a9b-000000000004";
  const draw = (input: string, args: string[] = [], env: Record<string, string> = {}) => {
    const [file, argv] = command(args);
    return runBundle(file, [...argv], { input, env: { HOME: home, ...env } });
  };
  // The documented stdin (the status line's stdin: docs/claude-code-versions.md, "The status line, interactively").
  const input = (
    size: number | null,
    usage: Record<string, number> | null,
    model = "claude-opus-4-8",
  ) =>
    JSON.stringify({
      hook_event_name: "Status",
      session_id: sid,
      transcript_path: path.join(FIXTURES, "spotter-short.jsonl"),
      cwd: path.join(home, "proj"),
      model: { id: model, display_name: "Opus" },
      workspace: { current_dir: path.join(home, "proj"), project_dir: path.join(home, "proj") },
      version: "2.1.197",
      cost: { total_cost_usd: 0.01, total_duration_ms: 1000 },
      context_window: {
        total_input_tokens: 1,
        total_output_tokens: 1,
        context_window_size: size,
        used_percentage: 20,
        remaining_percentage: 80,
        current_usage: usage,
      },
      exceeds_200k_tokens: false,
    });
  let record = "";

  beforeAll(() => {
    record = path.join(home, ".claude", "quoin-checkpoint", "state", `window-${sid}.json`);
    fs.copyFileSync(path.join(DIST, "statusline.cjs"), path.join(tmp, "alone", "statusline.cjs"));
  });

  it("records the window outside the project for the hooks, and prints a gauge with tokens and the limit", () => {
    fs.rmSync(record, { force: true });
    const r = draw(
      input(1000000, {
        input_tokens: 5,
        cache_creation_input_tokens: 1000,
        cache_read_input_tokens: 200000,
        output_tokens: 9,
      }),
    );
    expect(r).toMatchObject({ status: 0, stdout: "[Opus] ctx 201k of 967k (20.7%)\n", stderr: "" });
    expect(JSON.parse(fs.readFileSync(record, "utf8"))).toEqual({
      context_window_size: 1000000,
      model: "claude-opus-4-8",
      recorded_at: expect.stringMatching(/Z$/),
    });
    expect(fs.statSync(record).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(path.join(home, "proj", ".workflow_artifacts"))).toBe(false);
  });

  it("a draw with the same window writes nothing; a changed window is recorded again", () => {
    draw(input(1000000, null)); // its own starting record: no earlier test's draw is assumed
    const before = fs.readFileSync(record, "utf8");
    fs.utimesSync(record, new Date("2026-01-01T00:00:00Z"), new Date("2026-01-01T00:00:00Z"));
    draw(input(1000000, null));
    expect(fs.statSync(record).mtime.toISOString()).toBe("2026-01-01T00:00:00.000Z");
    draw(input(200000, null));
    expect(JSON.parse(fs.readFileSync(record, "utf8")).context_window_size).toBe(200000);
    expect(fs.readFileSync(record, "utf8")).not.toBe(before);
  });

  it("the prompt hook's source: the engine's status uses the recorded window", () => {
    draw(input(1000000, null));
    const r = runBundle(
      engine,
      [
        "status",
        "--transcript",
        path.join(FIXTURES, "spotter-short.jsonl"),
        "--session",
        sid,
        "--json",
      ],
      { env: { HOME: home } },
    );
    expect(JSON.parse(r.stdout)).toMatchObject({
      window: 1000000,
      windowSource: "statusline",
      windowKnown: true,
    });
  });

  it("reads the transcript when current_usage is null (before the first reply, after /compact)", () => {
    expect(draw(input(200000, null)).stdout).toBe("[Opus] ctx 25k of 167k (15.1%)\n");
  });

  it("wraps the user's own status line: theirs first, still printed", () => {
    expect(draw(input(200000, null), ["--wrap", "printf 'mine: '; head -c 12"]).stdout).toBe(
      'mine: {"hook_event | [Opus] ctx 25k of 167k (15.1%)\n',
    );
  });

  it("reads the knobs once and quietly: a bad knob costs no stderr line on a draw", () => {
    const r = draw(input(200000, null), [], {
      QUOIN_AUTOCOMPACT_BUFFER: "lots",
      QUOIN_CONTEXT_WINDOW: "1000000",
    });
    expect(r.stdout).toBe("[Opus] ctx 25k of 967k (2.6%)\n");
    if (command([])[0] !== engine) expect(r.stderr).toBe("");
  });

  it("never fails loudly on garbage", () => {
    expect(draw("nope")).toMatchObject({ status: 0, stdout: "" });
    expect(draw("[1,2]")).toMatchObject({ status: 0, stdout: "" });
    expect(
      draw(
        JSON.stringify({ session_id: "../../x", context_window: { context_window_size: 1000000 } }),
      ),
    ).toMatchObject({ status: 0, stdout: "ctx -- of 967k\n" });
    expect(fs.readdirSync(path.dirname(record)).filter((f) => f.includes(".."))).toEqual([]);
  });
});

describe("engine refusals under --json", () => {
  it("answer with exactly one object on stdout, and the same line on stderr", () => {
    const bad = runBundle(
      engine,
      ["status", "--session", "../../etc/x", "--cwd", path.join(home, "proj"), "--json"],
      { env: { HOME: home } },
    );
    expect(bad.status).toBe(2);
    expect(JSON.parse(bad.stdout)).toEqual({
      ok: false,
      reason: expect.stringContaining("expected 1-128 characters"),
      expected: "--transcript PATH",
    });
    const flag = runBundle(engine, ["save", "--bogus", "--json"], { env: { HOME: home } });
    expect(flag.status).toBe(2);
    expect(flag.stdout.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse(flag.stdout)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("--bogus"),
    });
  });
});
