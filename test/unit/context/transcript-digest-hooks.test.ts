import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import type { FsApi } from "../../../lib/core/deps.ts";
import { digestLines } from "../../../lib/context/transcript-digest.ts";
import { hookName } from "../../../lib/context/transcript-digest-hooks.ts";
import { readTranscriptDigest } from "../../../lib/context/transcript-digest-read.ts";
import { bash, resultLine, sayLine, useLine } from "../../helpers/transcript-lines.ts";

// What the session's own PostToolUse hooks told the model after the last edit. Both pinned clients
// record it as attachment lines (the fixtures were written by them, see their README); the state
// line quotes it, so a fresh session knows the edit left a compile error before it runs anything.

const REAL = path.resolve(import.meta.dirname, "../../fixtures/real-client-transcripts");
const HOOKED = [
  "claude-2.1.197-posttooluse-feedback.jsonl",
  "claude-2.1.332-posttooluse-feedback.jsonl",
];
const sidOf = (lines: string[]) =>
  (JSON.parse(lines.find((l) => l.includes('"sessionId"'))!) as { sessionId: string }).sessionId;

const EXPECTED =
  "x.ex was changed at <at> and no build or test command ran since; run the project's build and tests first: after the edit a PostToolUse hook told the model `error: lib/x.ex:171: cannot invoke remote function Access.get/2 inside a guard` (check.sh); `credo: nested too deep at line 152`";

describe("what PostToolUse hooks told the model after the last edit", () => {
  for (const name of HOOKED) {
    it(`${name}: the state line quotes both hooks' words, read whole and through the bounded reader`, () => {
      const file = path.join(REAL, name);
      const lines = fs.readFileSync(file, "utf8").trim().split("\n");
      const opts = { projectRoot: "/home/USER/proj", sessionId: sidOf(lines) };
      const whole = digestLines(lines, opts).unverified;
      const at = /changed at (\S+Z) /.exec(whole ?? "")?.[1];
      expect(whole).toBe(EXPECTED.replace("<at>", at ?? "?"));
      // the reader skips lines that cannot matter before parsing: the attachments must pass
      const read = readTranscriptDigest(fs as unknown as FsApi, file, opts);
      expect(read?.unverified).toBe(whole);
    });
  }

  const write = (id: string, at: string) => [
    useLine(id, "Write", { file_path: "/repo/lib/a.ex", content: "x" }, at),
    resultLine(id, "File created successfully at: /repo/lib/a.ex"),
  ];
  const blocking = (id: string, text: string) =>
    JSON.stringify({
      type: "attachment",
      timestamp: "2026-12-01T10:00:01.000Z",
      attachment: {
        type: "hook_blocking_error",
        hookName: "PostToolUse:Write",
        toolUseID: id,
        hookEvent: "PostToolUse",
        blockingError: { blockingError: `[/h/check.sh]: ${text}`, command: "/h/check.sh" },
      },
    });
  const success = (id: string) =>
    JSON.stringify({
      type: "attachment",
      attachment: { type: "hook_success", toolUseID: id, hookEvent: "PostToolUse", exitCode: 0 },
    });

  it("a later edit of the same file that drew no complaint answers the earlier one's error", () => {
    const lines = [
      ...write("w1", "2026-12-01T10:00:00.000Z"),
      blocking("w1", "error: a.ex:3: undefined function foo/0"),
      ...write("w2", "2026-12-01T10:05:00.000Z"),
      success("w2"),
    ];
    expect(digestLines(lines, { projectRoot: "/repo" }).unverified).toBe(
      "lib/a.ex was changed at 2026-12-01T10:05:00Z and no build or test command ran since: its state is unverified; run the project's build and tests first",
    );
    // without the later edit, the error stands
    expect(digestLines(lines.slice(0, 3), { projectRoot: "/repo" }).unverified).toMatch(
      /told the model `error: a.ex:3: undefined function foo\/0` \(check.sh\)$/,
    );
  });

  it("a check run after the hook's complaint settles the edit: no state line", () => {
    const lines = [
      ...write("w1", "2026-12-01T10:00:00.000Z"),
      blocking("w1", "error: a.ex:3: undefined function foo/0"),
      ...bash("c1", "mix compile", "Compiling 1 file (.ex)", false, "2026-12-01T10:01:00.000Z"),
    ];
    expect(digestLines(lines, { projectRoot: "/repo" }).unverified).toBeNull();
  });

  it("quotes two of the hooks' words and counts the rest", () => {
    const u = digestLines(
      [
        ...write("w1", "2026-12-01T10:00:00.000Z"),
        blocking("w1", "first"),
        blocking("w1", "second"),
        blocking("w1", "third"),
      ],
      { projectRoot: "/repo" },
    ).unverified;
    expect(u).toMatch(/told the model `first` \(check.sh\); `second` \(check.sh\) \+1 more$/);
  });

  it("a hook's words are data: one line, backquotes made ', cut to 160 characters", () => {
    const long = `bad \`thing\`\nline two ${"x".repeat(300)}`;
    const u = digestLines([...write("w1", "2026-12-01T10:00:00.000Z"), blocking("w1", long)], {
      projectRoot: "/repo",
    }).unverified!;
    const quoted = /told the model `([^`]*)`/.exec(u)![1]!;
    expect(quoted.startsWith("bad 'thing' line two x")).toBe(true);
    expect(quoted.length).toBeLessThanOrEqual(160);
    expect(u).not.toContain("\n");
  });

  it("names a hook by its command's last path part", () => {
    expect(hookName("cd ${CLAUDE_PLUGIN_ROOT}/hooks && bun run ./dist/post-edit-check.js")).toBe(
      "post-edit-check.js",
    );
    expect(hookName("${CLAUDE_PLUGIN_ROOT}/scripts/post-edit.sh")).toBe("post-edit.sh");
    expect(hookName("/h/check.sh")).toBe("check.sh");
    expect(hookName("prettier --write")).toBe("prettier");
  });

  it("an objection a later edit answered is a fix learnt the hard way, with the model's account", () => {
    const lines = [
      ...write("w1", "2026-12-01T10:00:00.000Z"),
      blocking("w1", "error: a.ex:3: cannot invoke remote function Access.get/2 inside a guard"),
      sayLine(
        "Access.get cannot run in a guard; I'll bind the index first and compare after.",
        "2026-12-01T10:00:05.000Z",
      ),
      ...write("w2", "2026-12-01T10:01:00.000Z"),
      blocking("w2", "error: a.ex:4: undefined variable idx"),
      ...write("w3", "2026-12-01T10:02:00.000Z"),
      success("w3"),
    ];
    const d = digestLines(lines, { projectRoot: "/repo" });
    expect(d.fixed).toEqual([
      {
        command: "Write lib/a.ex",
        error: "check.sh: error: a.ex:3: cannot invoke remote function Access.get/2 inside a guard",
        at: "2026-12-01T10:00:00.000Z",
        fixedAt: "2026-12-01T10:02:00.000Z",
        fixedBy: "Write lib/a.ex",
        explanation:
          "Access.get cannot run in a guard; I'll bind the index first and compare after.",
      },
    ]);
    // not a standing failure, and the quiet last edit leaves no quoted objection
    expect(d.failures).toEqual([]);
    expect(d.unverified).not.toContain("told the model");
    // an objection nothing answered is the state line's, not a fix and not a standing failure
    const open = digestLines(lines.slice(0, 7), { projectRoot: "/repo" });
    expect(open.fixed).toEqual([]);
    expect(open.failures).toEqual([]);
    expect(open.unverified).toContain("told the model `error: a.ex:4: undefined variable idx`");
  });

  it("on an older client (no recorded outcomes) no edit is taken as answering anything", () => {
    const progress = (id: string) =>
      JSON.stringify({
        type: "progress",
        toolUseID: id,
        data: {
          type: "hook_progress",
          hookEvent: "PostToolUse",
          command: "bun run ./dist/post-edit-check.js",
        },
      });
    const d = digestLines(
      [
        ...write("w1", "2026-12-01T10:00:00.000Z"),
        progress("w1"),
        ...write("w2", "2026-12-01T10:01:00.000Z"),
        progress("w2"),
      ],
      { projectRoot: "/repo" },
    );
    expect(d.fixed).toEqual([]);
    expect(d.unverified).toMatch(
      /PostToolUse hooks \(post-edit-check.js\) ran after the edit, but what they told the model is not in the transcript$/,
    );
  });
});
