import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { FsApi } from "../../../lib/core/deps.ts";
import { readTranscriptTail } from "../../../lib/context/transcript-tail.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../../fixtures/transcripts");
const realFs = fs as unknown as FsApi;
const opts = { bytesPerToken: 8 };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-tail-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function fixtureLines(name: string): string[] {
  return fs
    .readFileSync(path.join(FIXTURES, name), "utf8")
    .split("\n")
    .filter((l) => l !== "");
}

function derived(name: string, lines: string[], trailingNewline = true): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, lines.join("\n") + (trailingNewline ? "\n" : ""));
  return file;
}

const assistant = (
  tokens: { input: number; read?: number; create?: number },
  extra: Record<string, unknown> = {},
  model = "claude-opus-4-6",
) =>
  JSON.stringify({
    type: "assistant",
    isSidechain: false,
    uuid: `u-${Math.random()}`,
    message: {
      model,
      role: "assistant",
      content: [{ type: "text", text: "ok" }],
      usage: {
        input_tokens: tokens.input,
        cache_read_input_tokens: tokens.read ?? 0,
        cache_creation_input_tokens: tokens.create ?? 0,
        output_tokens: 5,
      },
    },
    ...extra,
  });

describe("token figures of the real fixtures (their README table)", () => {
  it.each([
    ["spotter-4d5611e5-241a-462a-8d15-5122611a9569.jsonl", 106060, "usage"],
    ["spotter-short.jsonl", 25353, "usage"],
    ["spotter-subagent.jsonl", 43861, "usage"],
    ["spotter-tool_heavy.jsonl", 27666, "usage"],
    ["viewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl", 21552, "usage"],
    ["viewer-agent-test-hash-123.jsonl", Math.round(1002 / 8), "bytes"],
  ])("%s gives %i tokens from %s", (name, tokens, source) => {
    const r = readTranscriptTail(realFs, path.join(FIXTURES, name), opts);
    expect(r).toMatchObject({ tokens, source });
  });
});

describe("readTranscriptTail", () => {
  const base = fixtureLines("spotter-short.jsonl");

  it("uses postTokens of a compact_boundary newer than the last usage", () => {
    const file = derived("compact.jsonl", [
      ...base,
      JSON.stringify({
        type: "system",
        subtype: "compact_boundary",
        parentUuid: null,
        compactMetadata: { trigger: "auto", preTokens: 170251, postTokens: 12000 },
      }),
      JSON.stringify({
        type: "user",
        isCompactSummary: true,
        message: { role: "user", content: "This session is being continued" },
      }),
    ]);
    expect(readTranscriptTail(realFs, file, opts)).toMatchObject({
      tokens: 12000,
      source: "compact",
    });
  });

  it("counts 0 after a compact_boundary without postTokens (older clients)", () => {
    const file = derived("compact-old.jsonl", [
      ...base,
      JSON.stringify({
        type: "system",
        subtype: "compact_boundary",
        compactMetadata: { trigger: "manual", preTokens: 170251 },
      }),
    ]);
    expect(readTranscriptTail(realFs, file, opts)).toMatchObject({ tokens: 0, source: "compact" });
  });

  it("takes the usage after the compaction in the real compacted session", () => {
    const r = readTranscriptTail(
      realFs,
      path.join(FIXTURES, "spotter-4d5611e5-241a-462a-8d15-5122611a9569.jsonl"),
      opts,
    );
    expect(r?.source).toBe("usage");
    expect(r?.tokens).toBe(106060);
  });

  it("skips sidechain lines written after the last main-chain line", () => {
    const file = derived("sidechain.jsonl", [
      ...base,
      assistant({ input: 10, read: 500000 }, { isSidechain: true, agentId: "a1" }),
    ]);
    expect(readTranscriptTail(realFs, file, opts)).toMatchObject({
      tokens: 25353,
      source: "usage",
    });
  });

  it("skips an API-error stand-in written last", () => {
    const file = derived("apierror.jsonl", [
      ...base,
      assistant({ input: 0 }, { isApiErrorMessage: true, error: "overloaded" }, "<synthetic>"),
    ]);
    expect(readTranscriptTail(realFs, file, opts)).toMatchObject({
      tokens: 25353,
      source: "usage",
    });
  });

  it("reports the model of the newest reply after a model switch", () => {
    const file = derived("switch.jsonl", [
      ...base,
      assistant({ input: 3, read: 40000, create: 100 }, {}, "claude-sonnet-4-5-20250929"),
    ]);
    expect(readTranscriptTail(realFs, file, opts)).toMatchObject({
      tokens: 40103,
      model: "claude-sonnet-4-5-20250929",
    });
  });

  it("ignores a truncated last line and uses the complete one before it", () => {
    const partial = assistant({ input: 1, read: 999999 }).slice(0, 120);
    const file = derived("truncated.jsonl", [...base, partial], false);
    expect(readTranscriptTail(realFs, file, opts)).toMatchObject({
      tokens: 25353,
      source: "usage",
    });
  });

  it("survives binary garbage and malformed lines", () => {
    const file = path.join(tmp, "garbage.jsonl");
    fs.writeFileSync(
      file,
      Buffer.concat([
        Buffer.from(`${base.join("\n")}\n`),
        Buffer.from([0, 255, 254, 10, 123, 34, 117, 115, 97, 103, 101, 34, 10]),
        Buffer.from("{not json\n"),
      ]),
    );
    expect(readTranscriptTail(realFs, file, opts)).toMatchObject({
      tokens: 25353,
      source: "usage",
    });
  });

  it("falls back to the byte estimate when no line has usage", () => {
    const file = derived("nousage.jsonl", [
      JSON.stringify({ type: "user", message: { role: "user", content: "hi" } }),
    ]);
    const size = fs.statSync(file).size;
    expect(readTranscriptTail(realFs, file, opts)).toMatchObject({
      tokens: Math.round(size / 8),
      source: "bytes",
    });
  });

  it("reads an empty file as zero tokens and a missing file as null", () => {
    expect(readTranscriptTail(realFs, derived("empty.jsonl", [], false), opts)).toMatchObject({
      tokens: 0,
      source: "bytes",
    });
    expect(readTranscriptTail(realFs, path.join(tmp, "nope.jsonl"), opts)).toBeNull();
  });

  it("reads only the tail of a large file: the bytes scanned do not grow with the file", () => {
    const file = path.join(tmp, "large.jsonl");
    const filler = `${JSON.stringify({ type: "progress", data: { type: "bash_progress", output: "x".repeat(2000) } })}\n`;
    const fd = fs.openSync(file, "w");
    for (let i = 0; i < 10_000; i += 1) fs.writeSync(fd, filler);
    fs.writeSync(fd, `${base.join("\n")}\n`);
    fs.closeSync(fd);
    const r = readTranscriptTail(realFs, file, opts);
    expect(r).toMatchObject({ tokens: 25353, source: "usage" });
    expect(r!.sizeBytes).toBeGreaterThan(20_000_000);
    expect(r!.scannedBytes).toBeLessThanOrEqual(64 * 1024);
  });

  it("grows its window backwards past a huge last line", () => {
    const file = derived("hugeline.jsonl", [
      ...base,
      JSON.stringify({ type: "user", message: { role: "user", content: "y".repeat(300_000) } }),
    ]);
    expect(readTranscriptTail(realFs, file, opts)).toMatchObject({
      tokens: 25353,
      source: "usage",
    });
  });
});
