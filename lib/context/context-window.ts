import table from "./model-windows.json" with { type: "json" };

// The one place that decides a session's window and its 100 % limit, and says where they came
// from. Sources in order: QUOIN_CONTEXT_WINDOW; the status line's record for this session; a
// model setting Claude Code exposes (CLAUDE_CODE_DISABLE_1M_CONTEXT, ANTHROPIC_MODEL or
// settings.json `model` with [1m] naming this model); the model table when the model has one
// window only; else the default, which is a guess. Usage above a guessed (or table) window proves
// a larger one. Then the auto-compact window the person set (CLAUDE_CODE_AUTO_COMPACT_WINDOW or
// settings `autoCompactWindow`): the client compacts as if the window were that size, when it is
// smaller than the model's; every threshold is then relative to it. Only a guess stops the block
// tier from blocking; an auto-compact window no larger than the guess (the smallest window the
// model offers) settles it, since the client compacts there on any window.

/**
 * How to make a guessed window known, when the install is not known (a build run from a clone's
 * dist/): lib/install/window-advice.ts says it in the words of the install that runs.
 */
export const MAKE_WINDOW_KNOWN =
  "keep quoin's status-line recorder (installed unless --no-statusline; it records the window once the interactive client draws its status line) or set QUOIN_CONTEXT_WINDOW";

export type WindowSource =
  | "env"
  | "statusline"
  | "model-setting"
  | "model-table"
  | "usage"
  | "auto-compact"
  | "default";

/** A window a setting of Claude Code's settles, with where it was read (for the message). */
export interface SettingWindow {
  window: number;
  where: string;
}

export interface WindowInputs {
  /** QUOIN_CONTEXT_WINDOW */
  envWindow?: number | undefined;
  /** QUOIN_EFFECTIVE_CONTEXT_LIMIT */
  limitOverride?: number | undefined;
  /** QUOIN_AUTOCOMPACT_BUFFER */
  buffer: number;
  /** context_window_size the status line recorded (or reports now) for this session */
  recorded?: number | undefined;
  setting?: SettingWindow | null | undefined;
  /** the auto-compact window the person set (auto-compact-setting.ts) */
  autoCompact?: SettingWindow | null | undefined;
  /** the transcript's (or status line's) model id */
  model?: string | undefined;
  /** context tokens now: the evidence */
  tokens?: number | undefined;
}

export interface WindowChoice {
  window: number;
  limit: number;
  source: WindowSource;
  /** false: the window is the default guess; the block tier only advises */
  known: boolean;
  /** for messages: "QUOIN_CONTEXT_WINDOW", "the status line", "model claude-haiku-4-5", ... */
  from: string;
}

interface Rule {
  re: RegExp;
  windows: number[];
}
let rules: Rule[] | undefined;

/** A model id without the date suffix (-20250929); [1m] stays. */
function baseModelId(model: string): string {
  return model
    .trim()
    .toLowerCase()
    .replace(/-\d{8}(?=(\[1m\])?$)/, "");
}

/** The table's windows for a model: one (settled) or two (1M is an option); undefined when unknown. */
export function modelWindows(model: string | undefined): readonly number[] | undefined {
  if (!model) return undefined;
  rules ??= table.rules.map((r) => ({ re: new RegExp(r.pattern, "i"), windows: r.windows }));
  const id = baseModelId(model);
  return rules.find((r) => r.re.test(id))?.windows;
}

/** The smallest known window that holds `tokens`, when it is larger than `window`. */
function provenWindow(tokens: number | undefined, window: number): number | undefined {
  if (tokens === undefined || tokens <= window) return undefined;
  return table.known.find((w) => w >= tokens && w > window);
}

/**
 * 100 % = QUOIN_EFFECTIVE_CONTEXT_LIMIT, else window minus the autocompact buffer. A buffer
 * larger than half a (small, hand-set) window would make every figure absurd: the limit never
 * drops below half the window.
 */
export function effectiveLimit(window: number, buffer: number, override?: number): number {
  if (override) return override;
  return Math.max(Math.ceil(window / 2), window - buffer);
}

function settled(inp: WindowInputs): Omit<WindowChoice, "limit" | "known"> {
  if (inp.envWindow) return { window: inp.envWindow, source: "env", from: "QUOIN_CONTEXT_WINDOW" };
  if (inp.recorded) return { window: inp.recorded, source: "statusline", from: "the status line" };
  if (inp.setting)
    return { window: inp.setting.window, source: "model-setting", from: inp.setting.where };
  const windows = modelWindows(inp.model);
  if (windows?.length === 1)
    return { window: windows[0] as number, source: "model-table", from: `model ${inp.model}` };
  const offers = windows
    ? `; ${inp.model} offers ${windows.map(formatTokens).join(" or ")}`
    : inp.model
      ? `; model ${inp.model} not in the table`
      : "";
  return { window: windows?.[0] ?? table.default, source: "default", from: `assumed${offers}` };
}

/** The window, the 100 % limit, and where they came from. */
export function chooseWindow(inp: WindowInputs): WindowChoice {
  let pick = settled(inp);
  // Evidence beats a guess (and the table, which can be out of date), never a measured source.
  if (
    pick.source === "default" ||
    pick.source === "model-table" ||
    pick.source === "model-setting"
  ) {
    const proven = provenWindow(inp.tokens, pick.window);
    if (proven)
      pick = {
        window: proven,
        source: "usage",
        from: `usage ${formatTokens(inp.tokens ?? 0)} is over ${formatTokens(pick.window)}: at least ${formatTokens(proven)}`,
      };
  }
  // The client compacts at min(model window, auto-compact window): a guess is the smallest window
  // the model offers, so an auto-compact window at or under it holds on every window.
  if (inp.autoCompact && inp.autoCompact.window <= pick.window && pick.source !== "env")
    pick = {
      window: inp.autoCompact.window,
      source: "auto-compact",
      from: `auto-compact window: ${inp.autoCompact.where}`,
    };
  const limit = effectiveLimit(pick.window, inp.buffer, inp.limitOverride);
  // A limit the user set by hand is not a guess either.
  return { ...pick, limit, known: pick.source !== "default" || inp.limitOverride !== undefined };
}

/** Whether a setting's model value (`claude-sonnet-4-5[1m]`, `sonnet[1m]`) names the transcript's model. */
export function settingNamesModel(value: string, model: string): boolean {
  const want = baseModelId(value).replace(/\[1m\]$/, "");
  const have = baseModelId(model).replace(/\[1m\]$/, "");
  if (/^(opus|sonnet|haiku)$/.test(want)) return new RegExp(`(^|-)${want}(-|$)`).test(have);
  return want === have;
}

/** Integer basis points, not clamped: over 10000 is real. */
export function basisPoints(tokens: number, limit: number): number {
  return Math.floor((tokens * 10000) / Math.max(1, limit));
}

/** 158k, 1.2M, 950 */
export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(2).replace(/\.?0+$/, "")}M`;
  if (n >= 1000) return `${Math.round(n / 1000)}k`;
  return String(n);
}

/** 9460 -> "94.6%"; cut, not rounded: 9499 is "94.9%", never the "95.0%" of a tier it has not reached. */
export function formatBps(bps: number): string {
  return `${(Math.floor(bps / 10) / 10).toFixed(1)}%`;
}

/** "context 158k of 167k (94.6%)" */
export function describeUsage(tokens: number, limit: number, bps: number): string {
  return `context ${formatTokens(tokens)} of ${formatTokens(limit)} (${formatBps(bps)})`;
}

/** A threshold with the tokens it stands for: "95.0% = 159k of 167k" */
export function describeThreshold(bps: number, limit: number): string {
  return `${formatBps(bps)} = ${formatTokens(Math.floor((bps * limit) / 10000))} of ${formatTokens(limit)}`;
}
