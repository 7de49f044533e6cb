import * as z from "zod/mini";
import type { Deps } from "../core/deps.ts";
import type { Knobs } from "../core/knobs.ts";
import { basisPoints, chooseWindow, effectiveLimit, formatBps, formatTokens } from "./context-window.ts";
import { recordedWindow } from "./context-utilization.ts";
import { isUsableSessionId } from "../core/ids.ts";
import { claudeConfigDir } from "../core/config-dir.ts";
import { registryPath, writeRegistry } from "../store/session-registry.ts";
import { readTranscriptTail } from "./transcript-tail.ts";
import { utcIso } from "../core/time-format.ts";

const Usage = z.looseObject({
  input_tokens: z.optional(z.number()),
  cache_creation_input_tokens: z.optional(z.number()),
  cache_read_input_tokens: z.optional(z.number()),
});

/** Claude Code's status-line stdin (CLAUDE-CODE.md section 6); only what is used here. */
export const StatusLineInput = z.looseObject({
  session_id: z.optional(z.string()),
  cwd: z.optional(z.string()),
  transcript_path: z.optional(z.string()),
  model: z.optional(z.looseObject({ id: z.optional(z.string()), display_name: z.optional(z.string()) })),
  workspace: z.optional(z.looseObject({ current_dir: z.optional(z.string()) })),
  context_window: z.optional(
    z.nullable(
      z.looseObject({
        context_window_size: z.optional(z.nullable(z.number())),
        current_usage: z.optional(z.nullable(Usage)),
      }),
    ),
  ),
});
export type StatusLineInput = z.infer<typeof StatusLineInput>;

export interface StatusLineResult {
  line: string;
  recordedFile: string | null;
}

/**
 * Record the window Claude Code reports for this session (only when it changed), and draw the
 * gauge. The record is per-session state outside the repository (<config>/quoin-checkpoint/state/
 * window-<sid>.json): a status-line draw writes nothing into a project.
 */
export function handleStatusLine(deps: Deps, input: StatusLineInput, knobs: Knobs): StatusLineResult {
  const sid = isUsableSessionId(input.session_id) ? input.session_id : undefined;
  const size = input.context_window?.context_window_size ?? undefined;
  const config = claudeConfigDir(deps.env, deps.home);
  let recordedFile: string | null = null;
  if (sid && size && Number.isInteger(size) && size >= 1000 && recordedWindow(deps.fs, config, sid) !== size) {
    writeRegistry(deps, config, "window", sid, { context_window_size: size, model: input.model?.id ?? "", recorded_at: utcIso(deps.now()) });
    recordedFile = registryPath(config, "window", sid);
  }

  const usage = input.context_window?.current_usage;
  let tokens: number | undefined;
  let model = input.model?.id;
  if (usage) {
    tokens = (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
  } else if (input.transcript_path) {
    const reading = readTranscriptTail(deps.fs, input.transcript_path, { bytesPerToken: knobs.QUOIN_BYTES_PER_TOKEN });
    if (reading && reading.source !== "bytes") {
      tokens = reading.tokens;
      model ??= reading.model;
    }
  }
  const window = chooseWindow({ envWindow: knobs.QUOIN_CONTEXT_WINDOW, recorded: size ?? undefined, model }).window;
  const limit = effectiveLimit(window, knobs.QUOIN_AUTOCOMPACT_BUFFER, knobs.QUOIN_EFFECTIVE_CONTEXT_LIMIT);
  const name = input.model?.display_name ? `[${input.model.display_name}] ` : "";
  const line =
    tokens === undefined
      ? `${name}ctx -- of ${formatTokens(limit)}`
      : `${name}ctx ${formatTokens(tokens)} of ${formatTokens(limit)} (${formatBps(basisPoints(tokens, limit))})`;
  return { line, recordedFile };
}
