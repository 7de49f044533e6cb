import type { FsApi } from "../core/deps.ts";
import { readTextOrNull } from "../core/file-range.ts";
import type { Knobs } from "../core/knobs.ts";
import { basisPoints, chooseWindow, effectiveLimit, type WindowSource } from "./context-window.ts";
import { readTranscriptTail, type TokenSource } from "./transcript-tail.ts";
import { parseKeyValues, sentinelPath } from "../store/sentinels.ts";
import { isUsableSessionId } from "../core/ids.ts";

export interface Utilization {
  tokens: number;
  window: number;
  limit: number;
  bps: number;
  source: TokenSource;
  windowSource: WindowSource;
  model?: string;
}

/** The window the status-line command recorded for this session, if any. */
export function recordedWindow(fs: FsApi, memoryDir: string, sid: string | undefined): number | undefined {
  if (!isUsableSessionId(sid)) return undefined;
  // Most sessions never ran the status line: readTextOrNull probes before it reads.
  const text = readTextOrNull(fs, sentinelPath(memoryDir, "context-window", sid));
  const value = Number(parseKeyValues(text ?? "")["context_window_size"]);
  return Number.isInteger(value) && value >= 1000 ? value : undefined;
}

export interface MeasureInput {
  fs: FsApi;
  transcriptPath: string;
  knobs: Knobs;
  memoryDir?: string;
  sessionId?: string;
}

/** Utilization now, or null when the transcript cannot be read. */
export function measureUtilization(input: MeasureInput): Utilization | null {
  const { fs, knobs } = input;
  const reading = readTranscriptTail(fs, input.transcriptPath, { bytesPerToken: knobs.QUOIN_BYTES_PER_TOKEN });
  if (!reading) return null;
  const recorded = input.memoryDir ? recordedWindow(fs, input.memoryDir, input.sessionId) : undefined;
  const choice = chooseWindow({ envWindow: knobs.QUOIN_CONTEXT_WINDOW, recorded, model: reading.model });
  const limit = effectiveLimit(choice.window, knobs.QUOIN_AUTOCOMPACT_BUFFER, knobs.QUOIN_EFFECTIVE_CONTEXT_LIMIT);
  return {
    tokens: reading.tokens,
    window: choice.window,
    limit,
    bps: basisPoints(reading.tokens, limit),
    source: reading.source,
    windowSource: choice.source,
    model: reading.model,
  };
}
