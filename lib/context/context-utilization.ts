import type { Deps } from "../core/deps.ts";
import type { Knobs } from "../core/knobs.ts";
import {
  basisPoints,
  chooseWindow,
  type WindowChoice,
  type WindowSource,
} from "./context-window.ts";
import { settingWindow } from "./model-setting.ts";
import { AUTO_COMPACT_MIN, autoCompactWindow } from "./auto-compact-setting.ts";
import { readSettings } from "./settings-files.ts";
import { readTranscriptTail, type TokenSource } from "./transcript-tail.ts";
import { readRegistry } from "../store/session-registry.ts";
import { isUsableSessionId } from "../core/ids.ts";

export interface Utilization {
  tokens: number;
  window: number;
  limit: number;
  bps: number;
  source: TokenSource;
  windowSource: WindowSource;
  /** false: the window is the default guess */
  windowKnown: boolean;
  /** where the window came from, for messages */
  windowFrom: string;
  model?: string;
}

/** The window the status line recorded for this session (registry kind "window"), if any. */
export function recordedWindow(
  deps: Deps,
  configDir: string,
  sid: string | undefined,
): number | undefined {
  if (!isUsableSessionId(sid)) return undefined;
  const value = readRegistry(deps, configDir, "window", sid)?.["context_window_size"];
  return typeof value === "number" && Number.isInteger(value) && value >= 1000 ? value : undefined;
}

export interface MeasureInput {
  deps: Deps;
  transcriptPath: string;
  knobs: Knobs;
  /** <config>; without it only the env knob, the table and the evidence are used */
  configDir?: string;
  projectRoot?: string | null;
  sessionId?: string;
  /**
   * Read the status-line record and the settings only when the figure could reach this many
   * basis points on some window (the prompt hook passes QUOIN_STOP_BPS: below it, no window
   * changes what it does). Unset: always read them.
   */
  sourcesFromBps?: number;
}

/**
 * No model window Claude Code reports is under 200k, and no auto-compact window under 100k (the
 * clients' floor): a figure quiet on 100k is quiet on any window.
 */
const SMALLEST_WINDOW = AUTO_COMPACT_MIN;

function needsSources(input: MeasureInput, tokens: number, first: WindowChoice): boolean {
  if (input.sourcesFromBps === undefined) return true;
  if (first.source === "env") return false;
  const floor = chooseWindow({
    envWindow: Math.min(first.window, SMALLEST_WINDOW),
    buffer: input.knobs.QUOIN_AUTOCOMPACT_BUFFER,
    limitOverride: input.knobs.QUOIN_EFFECTIVE_CONTEXT_LIMIT,
  });
  return basisPoints(tokens, floor.limit) >= input.sourcesFromBps;
}

/** Utilization now, or null when the transcript cannot be read. */
export function measureUtilization(input: MeasureInput): Utilization | null {
  const { deps, knobs } = input;
  const reading = readTranscriptTail(deps.fs, input.transcriptPath, {
    bytesPerToken: knobs.QUOIN_BYTES_PER_TOKEN,
  });
  if (!reading) return null;
  const base = {
    envWindow: knobs.QUOIN_CONTEXT_WINDOW,
    limitOverride: knobs.QUOIN_EFFECTIVE_CONTEXT_LIMIT,
    buffer: knobs.QUOIN_AUTOCOMPACT_BUFFER,
    model: reading.model,
    // A byte estimate proves nothing about the window.
    tokens: reading.source === "bytes" ? undefined : reading.tokens,
  };
  let choice = chooseWindow(base);
  if (input.configDir && needsSources(input, reading.tokens, choice)) {
    const recorded = recordedWindow(deps, input.configDir, input.sessionId);
    // One reader for both questions: each settings file is read at most once on this prompt.
    const settings = readSettings(deps.fs, {
      env: deps.env,
      configDir: input.configDir,
      projectRoot: input.projectRoot ?? null,
    });
    const setting = recorded ? null : settingWindow(settings, reading.model);
    const autoCompact = autoCompactWindow(settings);
    choice = chooseWindow({ ...base, recorded, setting, autoCompact });
  }
  return {
    tokens: reading.tokens,
    window: choice.window,
    limit: choice.limit,
    bps: basisPoints(reading.tokens, choice.limit),
    source: reading.source,
    windowSource: choice.source,
    windowKnown: choice.known,
    windowFrom: choice.from,
    model: reading.model,
  };
}
