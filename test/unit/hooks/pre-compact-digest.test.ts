import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { runPreCompact } from "../../../lib/hooks/pre-compact.ts";
import { parseCheckpoint } from "../../../lib/store/checkpoint-parse.ts";
import { coverageByText, fileTokens } from "../../helpers/summary-oracle.ts";
import { fakeDeps } from "../../helpers/memfs-deps.ts";
import {
  beforeCompaction,
  savedByPreCompact,
  spotterBefore,
  spotterDeps,
  spotterSummary,
} from "../../helpers/spotter-compaction.ts";

// What an automatic checkpoint must carry for a fresh session, measured on a real session:
// spotter-4d5611e5 cut just before its compact_boundary; the PreCompact checkpoint written from
// that must name the files of the model's own summary that follows the boundary, carry the first
// and the newest typed request, and name a task.

const FIXTURES = path.resolve(import.meta.dirname, "../../fixtures/transcripts");

/** What the person typed, read independently of the digest: user text lines and queued prompts. */
function typedRequests(lines: readonly string[]): string[] {
  const out: string[] = [];
  const typed = (t: string) =>
    !/^\s*<(command-|local-command|task-notification)/.test(t) &&
    !t.startsWith("[Request interrupted");
  for (const l of lines) {
    const e = JSON.parse(l) as Record<string, any>;
    if (
      e["type"] === "queue-operation" &&
      e["operation"] === "enqueue" &&
      typeof e["content"] === "string" &&
      typed(e["content"])
    )
      out.push(e["content"]);
    if (e["type"] !== "user" || e["isMeta"] || e["isSidechain"] || e["isCompactSummary"]) continue;
    const c = e["message"]?.content;
    const text =
      typeof c === "string"
        ? c
        : Array.isArray(c) && c.every((b: any) => b.type === "text")
          ? c.map((b: any) => b.text).join("\n")
          : null;
    if (text && typed(text)) out.push(text);
  }
  return out;
}

const flat = (t: string) => t.replace(/\s+/g, " ").trim();

describe("PreCompact checkpoint on spotter-4d5611e5, cut before its compaction", () => {
  const before = spotterBefore;
  const summaryText = spotterSummary;
  const deps = spotterDeps({ transcript: beforeCompaction });
  const out = savedByPreCompact(deps);
  const text = deps.fs.readFileSync(out.result.checkpoint, "utf8") as string;
  const tokens = fileTokens(summaryText);
  const cov = coverageByText(tokens, text);
  if (process.env["SHOW_CKPT"]) console.log(text);

  it("names at least 90 % of the summary's file-like tokens", () => {
    expect(tokens.length).toBeGreaterThan(10);
    // printed so the figure is visible in the run
    console.log(
      `precompact checkpoint names ${cov.named.length} of ${tokens.length} summary file tokens (${(cov.ratio * 100).toFixed(1)} %); missed: ${cov.missed.join(", ")}; ${Buffer.byteLength(text)} bytes`,
    );
    expect(cov.ratio).toBeGreaterThanOrEqual(0.9);
  });

  it("holds the first and the newest typed request", () => {
    const typed = typedRequests(before);
    expect(typed.length).toBeGreaterThanOrEqual(2);
    const body = flat(text);
    expect(body).toContain(flat(typed[0]!).slice(0, 80));
    expect(body).toContain(flat(typed.at(-1)!).slice(0, 80));
    const parsed = parseCheckpoint(text);
    expect(parsed.digest.requests.find((r) => r.label === "first")?.text).toContain(
      flat(typed[0]!).slice(0, 80),
    );
    expect(parsed.digest.requests.find((r) => r.label === "newest")?.text).toContain(
      flat(typed.at(-1)!).slice(0, 80),
    );
  });

  it("has a task other than unknown on a named branch, and stays at most 6 KB", () => {
    const parsed = parseCheckpoint(text);
    expect(parsed.branch).toBe("spotter-dov");
    expect(parsed.task).toBe("spotter-dov");
    expect(path.basename(out.result.checkpoint)).toBe("2026-11-29-spotter-dov-precompact.md");
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(6 * 1024);
  });
});

describe("PreCompact checkpoint on viewer-fe5e1c67", () => {
  const VSID = "fe5e1c67-53e7-4862-81ae-d0e013e3270b";
  const VROOT = "/path/to/Demo";
  const raw = readFileSync(path.join(FIXTURES, `viewer-${VSID}.jsonl`), "utf8");
  const lines = raw.split("\n").filter((l) => l.trim() !== "");
  /** The todos of the transcript's last TodoWrite, read independently of the digest. */
  const lastTodos = (): Array<{ content: string; status: string }> => {
    let todos: Array<{ content: string; status: string }> = [];
    for (const l of lines) {
      const e = JSON.parse(l) as { message?: { content?: unknown } };
      const c = e.message?.content;
      if (!Array.isArray(c)) continue;
      for (const b of c as Array<{
        type?: string;
        name?: string;
        input?: { todos?: Array<{ content: string; status: string }> };
      }>) {
        if (b.type === "tool_use" && b.name === "TodoWrite" && b.input?.todos)
          todos = b.input.todos;
      }
    }
    return todos;
  };

  it("holds every todo of its last TodoWrite", () => {
    const transcript = `/home/u/.claude/projects/-path-to-Demo/${VSID}.jsonl`;
    const deps = fakeDeps({
      home: "/home/u",
      cwd: VROOT,
      files: { [`${VROOT}/.git/HEAD`]: "ref: refs/heads/main\n", [transcript]: raw },
    });
    const out = runPreCompact(deps, {
      hook_event_name: "PreCompact",
      session_id: VSID,
      transcript_path: transcript,
      cwd: VROOT,
      trigger: "auto",
    });
    if (!out.saved) throw new Error(out.reason);
    const parsed = parseCheckpoint(deps.fs.readFileSync(out.result.checkpoint, "utf8") as string);
    const expected = lastTodos();
    expect(expected.length).toBeGreaterThan(2);
    expect(parsed.digest.todos?.map((t) => [t.status, t.content])).toEqual(
      expected.map((t) => [t.status, flat(t.content)]),
    );
    // on main with no session-state: a slug of the first request, not unknown
    expect(parsed.task).not.toBe("unknown");
  });
});
