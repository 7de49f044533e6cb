import type { FsApi } from "../core/deps.ts";
import { scanLinesBackwards, withOpenFile } from "../core/file-range.ts";

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

type LineVerdict =
  | { kind: "usage"; tokens: number; model?: string }
  | { kind: "compact"; tokens: number }
  | null;

function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0;
}

/**
 * Context tokens of one reply's usage: input + cache read + cache creation (output excluded), the
 * same sum the status line's used_percentage divides. The one place this sum is written.
 */
export function contextTokens(usage: Readonly<Record<string, unknown>>): number {
  return (
    num(usage["input_tokens"]) +
    num(usage["cache_read_input_tokens"]) +
    num(usage["cache_creation_input_tokens"])
  );
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
  const model =
    typeof message?.["model"] === "string" && message["model"] !== "<synthetic>"
      ? message["model"]
      : undefined;
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
export function readTranscriptTail(
  fs: FsApi,
  file: string,
  opts: TailOptions,
): TranscriptReading | null {
  return withOpenFile(fs, file, (fd, size): TranscriptReading => {
    let boundary: { tokens: number } | null = null;
    let found: TranscriptReading | null = null;
    const scan = scanLinesBackwards(
      fs,
      fd,
      size,
      {
        initialChunk: opts.initialChunk ?? 32 * 1024,
        growth: 2,
        maxChunk: Number.MAX_SAFE_INTEGER,
        maxScan: opts.maxScanBytes ?? 32 * 1024 * 1024,
        // A compaction seen: the model name would only label the window; do not dig further for it.
        stopAfterChunk: (scanned) => boundary !== null && scanned >= 256 * 1024,
      },
      (line) => {
        const verdict = judgeLine(line);
        if (verdict?.kind === "usage") {
          found = boundary
            ? {
                tokens: boundary.tokens,
                source: "compact",
                model: verdict.model,
                sizeBytes: size,
                scannedBytes: 0,
              }
            : {
                tokens: verdict.tokens,
                source: "usage",
                model: verdict.model,
                sizeBytes: size,
                scannedBytes: 0,
              };
          return true;
        }
        if (verdict?.kind === "compact" && !boundary) boundary = { tokens: verdict.tokens };
        return false;
      },
    );
    const reading = found as TranscriptReading | null;
    if (reading) return { ...reading, scannedBytes: scan.scanned };
    const b = boundary as { tokens: number } | null;
    if (b)
      return { tokens: b.tokens, source: "compact", sizeBytes: size, scannedBytes: scan.scanned };
    return {
      tokens: Math.round(size / opts.bytesPerToken),
      source: "bytes",
      sizeBytes: size,
      scannedBytes: scan.scanned,
    };
  });
}
