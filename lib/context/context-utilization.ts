import type { FsApi } from "../core/deps.ts";
import { readTextOrNull } from "../core/file-range.ts";
import type { Knobs } from "../core/knobs.ts";
import { basisPoints, chooseWindow, effectiveLimit, type WindowSource } from "./context-window.ts";
import { readTranscriptTail, type TokenSource } from "./transcript-tail.ts";
import { registryPath } from "../store/session-registry.ts";
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

/**
 * The window the status-line command recorded for this session, if any: per-session state in
 * <config>/quoin-checkpoint/state/ (session-registry), never in the repository.
 */
export function recordedWindow(fs: FsApi, configDir: string, sid: string | undefined): number | undefined {
  if (!isUsableSessionId(sid)) return undefined;
  // Most sessions never ran the status line: readTextOrNull probes before it reads.
  const text = readTextOrNull(fs, registryPath(configDir, "window", sid));
  if (text === null) return undefined;
  let value: number;
  try {
    value = Number((JSON.parse(text) as { context_window_size?: unknown } | null)?.context_window_size);
  } catch {
    return undefined;
  }
  return Number.isInteger(value) && value >= 1000 ? value : undefined;
}

export interface MeasureInput {
  fs: FsApi;
  transcriptPath: string;
  knobs: Knobs;
  /** <config> (claudeConfigDir), where the status line records the session's window */
  configDir?: string;
  sessionId?: string;
}

/** Utilization now, or null when the transcript cannot be read. */
export function measureUtilization(input: MeasureInput): Utilization | null {
  const { fs, knobs } = input;
  const reading = readTranscriptTail(fs, input.transcriptPath, { bytesPerToken: knobs.QUOIN_BYTES_PER_TOKEN });
  if (!reading) return null;
  const recorded = input.configDir ? recordedWindow(fs, input.configDir, input.sessionId) : undefined;
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
