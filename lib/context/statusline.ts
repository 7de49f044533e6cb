import type { Deps } from "../core/deps.ts";
import type { Knobs } from "../core/knobs.ts";
import { basisPoints, chooseWindow, formatBps, formatTokens } from "./context-window.ts";
import { recordedWindow } from "./context-utilization.ts";
import { isUsableSessionId } from "../core/ids.ts";
import { pruneRegistry, REGISTRY_MAX_AGE_MS, writeRegistry } from "../store/session-registry.ts";
import { contextTokens, readTranscriptTail } from "./transcript-tail.ts";
import { utcIso } from "../core/time-format.ts";
import { isRecord } from "../core/value-checks.ts";

// The status-line command (Claude Code's documented status-line stdin). It runs on every draw, so
// it is its own small bundle and checks its stdin by hand (no schema library to load). It records
// the window Claude Code reports for the session outside any repository (registry kind "window"),
// so a draw never writes into a project, and prints a gauge with tokens and the limit.

/** What is used of Claude Code's status-line stdin. */
export interface StatusLineInput {
  sessionId?: string;
  transcriptPath?: string;
  modelId?: string;
  displayName?: string;
  windowSize?: number;
  usage?: Record<string, unknown>;
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const obj = (v: unknown): Record<string, unknown> | undefined => (isRecord(v) ? v : undefined);

/** The fields this command uses, or null when stdin is not a JSON object. */
function parseStatusLineInput(raw: string): StatusLineInput | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  const top = obj(value);
  if (!top) return null;
  const model = obj(top["model"]);
  const cw = obj(top["context_window"]);
  const size = cw?.["context_window_size"];
  return {
    sessionId: str(top["session_id"]),
    transcriptPath: str(top["transcript_path"]),
    modelId: str(model?.["id"]),
    displayName: str(model?.["display_name"]),
    windowSize:
      typeof size === "number" && Number.isInteger(size) && size >= 1000 ? size : undefined,
    usage: obj(cw?.["current_usage"]),
  };
}

/** Record the window for this session when it is new or changed; true when written. */
function recordWindow(deps: Deps, configDir: string, input: StatusLineInput): boolean {
  const sid = input.sessionId;
  if (!isUsableSessionId(sid) || input.windowSize === undefined) return false;
  if (recordedWindow(deps, configDir, sid) === input.windowSize) return false;
  writeRegistry(deps, configDir, "window", sid, {
    context_window_size: input.windowSize,
    model: input.modelId ?? null,
    recorded_at: utcIso(deps.now()),
  });
  // Bounded: a write happens once per session (and per /model switch); old records go then.
  pruneRegistry(deps, configDir, REGISTRY_MAX_AGE_MS);
  return true;
}

/** The gauge: `[Opus] ctx 201k of 967k (20.8%)`. */
function statusLineGauge(deps: Pick<Deps, "fs">, input: StatusLineInput, knobs: Knobs): string {
  let tokens: number | undefined;
  let model = input.modelId;
  if (input.usage) tokens = contextTokens(input.usage);
  else if (input.transcriptPath) {
    // current_usage is null before the first reply and right after /compact.
    const reading = readTranscriptTail(deps.fs, input.transcriptPath, {
      bytesPerToken: knobs.QUOIN_BYTES_PER_TOKEN,
    });
    if (reading && reading.source !== "bytes") {
      tokens = reading.tokens;
      model ??= reading.model;
    }
  }
  const { limit } = chooseWindow({
    envWindow: knobs.QUOIN_CONTEXT_WINDOW,
    limitOverride: knobs.QUOIN_EFFECTIVE_CONTEXT_LIMIT,
    buffer: knobs.QUOIN_AUTOCOMPACT_BUFFER,
    recorded: input.windowSize,
    model,
    tokens,
  });
  const name = input.displayName ? `[${input.displayName}] ` : "";
  return tokens === undefined
    ? `${name}ctx -- of ${formatTokens(limit)}`
    : `${name}ctx ${formatTokens(tokens)} of ${formatTokens(limit)} (${formatBps(basisPoints(tokens, limit))})`;
}

/**
 * One draw: record the window, then print the user's own status line first (--wrap, exactly as
 * it would print without us) and the gauge after it. `quiet` (--quiet): record only, print the
 * user's line alone (nothing when there is none), so the recorder is invisible. Never throws: a
 * status line fails quietly.
 */
export function renderStatusLine(
  deps: Deps,
  raw: string,
  knobs: Knobs,
  configDir: string,
  wrap?: string,
  quiet = false,
): string {
  let theirs = "";
  if (wrap)
    theirs = deps
      .run("sh", ["-c", wrap], { input: raw, timeoutMs: 5000, cwd: deps.cwd })
      .stdout.replace(/\s+$/, "");
  let ours = "";
  const input = parseStatusLineInput(raw);
  if (input) {
    try {
      recordWindow(deps, configDir, input);
    } catch {
      // a read-only config folder: the gauge still draws
    }
    try {
      if (!quiet) ours = statusLineGauge(deps, input, knobs);
    } catch {
      ours = "";
    }
  }
  return [theirs, ours].filter((s) => s !== "").join(theirs.includes("\n") ? "\n" : " | ");
}
