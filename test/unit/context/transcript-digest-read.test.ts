import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { FsApi } from "../../../lib/core/deps.ts";
import { digestLines } from "../../../lib/context/transcript-digest.ts";
import { mayMatter, readTranscriptDigest } from "../../../lib/context/transcript-digest-read.ts";
import { fakeDeps } from "../../helpers/memfs-deps.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../../fixtures/transcripts");
const SPOTTER = path.join(FIXTURES, "spotter-4d5611e5-241a-462a-8d15-5122611a9569.jsonl");
const SPOTTER_SID = "4d5611e5-241a-462a-8d15-5122611a9569";
const ROOT = "/home/USER/projects/spotter-worktrees/spotter-dov";
const realFs = fs as unknown as FsApi;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-digest-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The real fs, counting every byte read through it. */
function countingFs(): { fs: FsApi; bytes: () => number } {
  let bytes = 0;
  const counted = {
    ...realFs,
    readSync: (...args: Parameters<FsApi["readSync"]>) => {
      const n = realFs.readSync(...args);
      bytes += n;
      return n;
    },
  } as FsApi;
  return { fs: counted, bytes: () => bytes };
}

describe("readTranscriptDigest", () => {
  it("with the whole file in budget equals digestLines over all its lines", () => {
    const all = fs.readFileSync(SPOTTER, "utf8").split("\n");
    const read = readTranscriptDigest(realFs, SPOTTER, {
      projectRoot: ROOT,
      sessionId: SPOTTER_SID,
    });
    expect(read).toEqual(
      digestLines(all, { projectRoot: ROOT, sessionId: SPOTTER_SID, transcriptPath: SPOTTER }),
    );
    expect(read?.truncated).toBe(false);
    expect(read?.summary?.transcript).toBe(SPOTTER);
  });

  // The byte-level skip must never drop a line that changes the digest: on every real transcript
  // (Claude Code 1.0.98 to 2.1.332), whole and cut at each tenth, the reader's digest is the one of
  // all the lines.
  const REAL = [
    ...fs.readdirSync(FIXTURES).map((f) => path.join(FIXTURES, f)),
    ...fs
      .readdirSync(path.join(FIXTURES, "../real-client-transcripts"))
      .map((f) => path.join(FIXTURES, "../real-client-transcripts", f)),
  ].filter((f) => f.endsWith(".jsonl"));
  it.each(REAL.map((f) => [path.basename(f), f]))(
    "%s: the reader's digest equals digestLines over every line, whole and cut",
    (_name, file) => {
      const all = fs.readFileSync(file, "utf8").split("\n");
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-digest-eq-"));
      try {
        for (let tenth = 1; tenth <= 10; tenth += 1) {
          const lines = all.slice(0, Math.ceil((all.length * tenth) / 10));
          const cutFile = path.join(tmp, `${tenth}.jsonl`);
          fs.writeFileSync(cutFile, lines.join("\n"));
          const opts = { projectRoot: ROOT };
          expect(readTranscriptDigest(realFs, cutFile, opts)).toEqual(
            digestLines(lines, { ...opts, transcriptPath: cutFile }),
          );
        }
      } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    },
  );

  it("a budget smaller than the file: truncated, the first request still found by the head read, never more bytes than budget + head", () => {
    const budget = 400_000;
    const head = 64 * 1024;
    const counting = countingFs();
    const read = readTranscriptDigest(counting.fs, SPOTTER, {
      projectRoot: ROOT,
      budgetBytes: budget,
      headBytes: head,
    })!;
    expect(read.truncated).toBe(true);
    expect(read.firstRequest?.text).toMatch(/^Work on bead spotter-dov/);
    expect(read.requestCount).toBe(0); // the window holds no typed request, only the late task notification
    expect(read.fixed[0]?.command).toBe("git push 2>&1");
    expect(counting.bytes()).toBeLessThanOrEqual(budget + head);
    expect(counting.bytes()).toBeGreaterThan(budget - 100_000);
  });

  it("a head too small to hold the first request gives none rather than a later one", () => {
    const read = readTranscriptDigest(realFs, SPOTTER, {
      projectRoot: ROOT,
      budgetBytes: 100_000,
      headBytes: 1000,
    })!;
    expect(read.firstRequest).toBeNull();
  });

  it("a partial last line (a write in progress) is skipped, the rest read", () => {
    const file = path.join(tmp, "partial.jsonl");
    const lines = fs
      .readFileSync(path.join(FIXTURES, "spotter-short.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean);
    fs.writeFileSync(file, `${lines.join("\n")}\n{"type":"user","message":{"content":"half`);
    expect(
      readTranscriptDigest(realFs, file, { projectRoot: "/x" })?.requests.map((r) => r.text),
    ).toEqual(["mix phx.server doesnt seem to start"]);
  });

  it("null for a missing file, a directory and a FIFO (without blocking on it)", () => {
    expect(
      readTranscriptDigest(realFs, path.join(tmp, "missing.jsonl"), { projectRoot: "/x" }),
    ).toBeNull();
    expect(readTranscriptDigest(realFs, tmp, { projectRoot: "/x" })).toBeNull();
    const fifo = path.join(tmp, "fifo.jsonl");
    execFileSync("mkfifo", [fifo]);
    expect(readTranscriptDigest(realFs, fifo, { projectRoot: "/x" })).toBeNull();
  });

  it("works on memfs (the Deps fs of unit tests); an empty file is an empty digest", () => {
    const deps = fakeDeps({
      files: {
        "/t/empty.jsonl": "",
        "/t/one.jsonl": '{"type":"user","sessionId":"s","message":{"content":"hello"}}\n',
      },
    });
    expect(
      readTranscriptDigest(deps.fs, "/t/empty.jsonl", { projectRoot: "/p" })?.requestCount,
    ).toBe(0);
    expect(
      readTranscriptDigest(deps.fs, "/t/one.jsonl", { projectRoot: "/p" })?.firstRequest?.text,
    ).toBe("hello");
  });
});

describe("mayMatter: the byte-level skip before parsing", () => {
  const b = (v: unknown) => Buffer.from(JSON.stringify(v));
  it("keeps what can change the digest and skips what cannot", () => {
    expect(mayMatter(b({ type: "user", message: { content: "typed" } }))).toBe(true);
    expect(
      mayMatter(
        b({
          type: "assistant",
          message: { content: [{ type: "tool_use", id: "t", name: "Edit", input: {} }] },
        }),
      ),
    ).toBe(true);
    expect(mayMatter(b({ type: "queue-operation", operation: "enqueue", content: "x" }))).toBe(
      true,
    );
    expect(mayMatter(b({ type: "system", subtype: "compact_boundary" }))).toBe(true);
    expect(
      mayMatter(
        b({
          type: "user",
          message: {
            content: [{ type: "tool_result", tool_use_id: "t", content: "x", is_error: true }],
          },
        }),
      ),
    ).toBe(true);
    expect(
      mayMatter(
        b({
          type: "user",
          message: { content: [{ type: "tool_result", tool_use_id: "t", content: "ok" }] },
          toolUseResult: { task: { id: "1" } },
        }),
      ),
    ).toBe(true);
    // a Read or an Edit that went through is skipped whatever its text holds; the same text as a
    // Bash run's output is kept, and an Edit that failed is kept
    const result = (content: string, toolUseResult: unknown, isError = false) =>
      b({
        type: "user",
        message: {
          content: [{ type: "tool_result", tool_use_id: "t", content, is_error: isError }],
        },
        toolUseResult,
      });
    const text = "FAIL test/a.test.ts: 1 failed; Error: boom";
    expect(mayMatter(result(text, { type: "text", file: { filePath: "/r/a.md" } }))).toBe(false);
    expect(mayMatter(result(text, { filePath: "/r/a.ts", structuredPatch: [] }))).toBe(false);
    expect(mayMatter(result(text, { stdout: text, stderr: "" }))).toBe(true);
    expect(mayMatter(result("String not found", { filePath: "/r/a.ts" }, true))).toBe(true);
    // a successful ordinary result, a progress line: nothing for the digest
    expect(
      mayMatter(
        b({
          type: "user",
          message: { content: [{ type: "tool_result", tool_use_id: "t", content: "file text" }] },
          toolUseResult: {},
        }),
      ),
    ).toBe(false);
    expect(
      mayMatter(
        b({ type: "progress", data: { type: "bash_progress", output: 'quoted {"type":"user"}' } }),
      ),
    ).toBe(false);
    // an assistant text line is the model's words; a commit's result and a test summary count
    expect(
      mayMatter(
        b({
          type: "assistant",
          message: { content: [{ type: "text", text: "the tool_use was fine" }] },
        }),
      ),
    ).toBe(true);
    expect(
      mayMatter(
        b({
          type: "user",
          message: {
            content: [
              {
                type: "tool_result",
                tool_use_id: "t",
                content: "[main abc1234] x\n 1 file changed",
              },
            ],
          },
        }),
      ),
    ).toBe(true);
    expect(
      mayMatter(
        b({
          type: "user",
          message: { content: [{ type: "tool_result", tool_use_id: "t", content: "3 failures" }] },
        }),
      ),
    ).toBe(true);
  });
});
