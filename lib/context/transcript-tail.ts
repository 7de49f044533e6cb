import type { FsApi } from "../core/deps.ts";
import { readRange, withOpenFile } from "../core/file-range.ts";

export type TokenSource = "usage" | "compact" | "bytes";

export interface TranscriptReading {
  tokens: number;
  source: TokenSource;
  /** message.model of the newest main-chain assistant line with usage, when seen */
  model?: string;
  sizeBytes: number;
  scannedBytes: number;
}

export interface TailOptions {
  bytesPerToken: number;
  /** first read from the end; doubles each time more is needed */
  initialChunk?: number;
  /** stop looking back after this many bytes and fall back to the byte estimate */
  maxScanBytes?: number;
}

const NEWLINE = 0x0a;

type LineVerdict = { kind: "usage"; tokens: number; model?: string } | { kind: "compact"; tokens: number } | null;

function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0;
}

/**
 * Context tokens of one reply's usage: input + cache read + cache creation (output excluded), the
 * same sum the status line's used_percentage divides. The one place this sum is written.
 */
export function contextTokens(usage: Readonly<Record<string, unknown>>): number {
  return num(usage["input_tokens"]) + num(usage["cache_read_input_tokens"]) + num(usage["cache_creation_input_tokens"]);
}

/** Judge one transcript line. Only lines that can matter are parsed at all. */
function judgeLine(line: Buffer): LineVerdict {
  const isBoundary = line.indexOf('"compact_boundary"') >= 0;
  const hasUsage = !isBoundary && line.indexOf('"usage"') >= 0 && line.indexOf('"assistant"') >= 0;
  if (!isBoundary && !hasUsage) return null;
  let entry: unknown;
  try {
    entry = JSON.parse(line.toString("utf8"));
  } catch {
    return null; // truncated last line, garbage, or a partial write
  }
  if (typeof entry !== "object" || entry === null) return null;
  const e = entry as Record<string, unknown>;
  if (e["isSidechain"] === true) return null;
  if (isBoundary) {
    if (e["type"] !== "system" || e["subtype"] !== "compact_boundary") return null;
    const meta = e["compactMetadata"] as Record<string, unknown> | undefined;
    return { kind: "compact", tokens: num(meta?.["postTokens"]) };
  }
  if (e["type"] !== "assistant" || e["isApiErrorMessage"] === true) return null;
  const message = e["message"] as Record<string, unknown> | undefined;
  const usage = message?.["usage"] as Record<string, unknown> | undefined;
  if (!usage || typeof usage["input_tokens"] !== "number") return null;
  const model = typeof message?.["model"] === "string" && message["model"] !== "<synthetic>" ? message["model"] : undefined;
  return {
    kind: "usage",
    tokens: contextTokens(usage),
    model,
  };
}

/**
 * Context tokens from the transcript's tail: the newest main-chain assistant usage, unless a
 * compact_boundary is newer (then its postTokens, else 0). Reads backwards from the end, growing
 * the window only while nothing decisive was found, so the cost does not grow with the file.
 * Returns null when the file cannot be opened.
 */
export function readTranscriptTail(fs: FsApi, file: string, opts: TailOptions): TranscriptReading | null {
  return withOpenFile(fs, file, (fd, size): TranscriptReading => {
    const maxScan = opts.maxScanBytes ?? 32 * 1024 * 1024;
    let chunk = opts.initialChunk ?? 32 * 1024;
    let end = size;
    let carry: Buffer = Buffer.alloc(0);
    let scanned = 0;
    let boundary: { tokens: number } | null = null;

    while (end > 0 && scanned < maxScan) {
      const start = Math.max(0, end - chunk);
      const piece = readRange(fs, fd, start, end);
      scanned += piece.length;
      const data = carry.length ? Buffer.concat([piece, carry]) : piece;

      let segEnd = data.length;
      for (;;) {
        const idx = segEnd > 0 ? data.lastIndexOf(NEWLINE, segEnd - 1) : -1;
        // Before the first newline of a read that did not start at 0, the line is incomplete.
        if (idx < 0 && start > 0) break;
        const line = data.subarray(idx + 1, segEnd);
        if (line.length > 0) {
          const verdict = judgeLine(line);
          if (verdict?.kind === "usage") {
            if (boundary) return { tokens: boundary.tokens, source: "compact", model: verdict.model, sizeBytes: size, scannedBytes: scanned };
            return { tokens: verdict.tokens, source: "usage", model: verdict.model, sizeBytes: size, scannedBytes: scanned };
          }
          if (verdict?.kind === "compact" && !boundary) {
            boundary = { tokens: verdict.tokens };
          }
        }
        if (idx < 0) break;
        segEnd = idx;
      }
      if (start === 0) break;
      carry = Buffer.from(data.subarray(0, segEnd));
      end = start;
      // A compaction seen: the model name would only label the window; do not dig further for it.
      if (boundary && scanned >= 256 * 1024) break;
      chunk *= 2;
    }
    if (boundary) return { tokens: boundary.tokens, source: "compact", sizeBytes: size, scannedBytes: scanned };
    return { tokens: Math.round(size / opts.bytesPerToken), source: "bytes", sizeBytes: size, scannedBytes: scanned };
  });
}
