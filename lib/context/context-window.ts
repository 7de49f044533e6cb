import table from "./model-windows.json" with { type: "json" };

export type WindowSource = "env" | "statusline" | "model-table" | "default";

export interface WindowChoice {
  window: number;
  source: WindowSource;
}

let rules: Array<{ re: RegExp; window: number }> | undefined;

export function windowFromModel(model: string | undefined): number | undefined {
  if (!model) return undefined;
  rules ??= table.rules.map((r) => ({ re: new RegExp(r.pattern, "i"), window: r.window }));
  for (const rule of rules) if (rule.re.test(model)) return rule.window;
  return undefined;
}

/**
 * Window: QUOIN_CONTEXT_WINDOW; else what the status line recorded for this session; else the
 * model table; else 200000.
 */
export function chooseWindow(opts: { envWindow?: number; recorded?: number; model?: string }): WindowChoice {
  if (opts.envWindow) return { window: opts.envWindow, source: "env" };
  if (opts.recorded) return { window: opts.recorded, source: "statusline" };
  const fromModel = windowFromModel(opts.model);
  if (fromModel) return { window: fromModel, source: "model-table" };
  return { window: table.default, source: "default" };
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

/** Integer basis points, not clamped: over 10000 is real. */
export function basisPoints(tokens: number, limit: number): number {
  return Math.floor((tokens * 10000) / Math.max(1, limit));
}

/** 158k, 1.2M, 950 */
export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(n % 1_000_000 === 0 ? 0 : 2).replace(/\.?0+$/, "")}M`;
  if (n >= 1000) return `${Math.round(n / 1000)}k`;
  return String(n);
}

/** 9460 -> "94.6%" */
export function formatBps(bps: number): string {
  return `${(bps / 100).toFixed(1)}%`;
}

/** "context 158k of 167k (94.6%)" */
export function describeUsage(tokens: number, limit: number, bps: number): string {
  return `context ${formatTokens(tokens)} of ${formatTokens(limit)} (${formatBps(bps)})`;
}

/** A threshold with the tokens it stands for: "95.0% = 159k of 167k" */
export function describeThreshold(bps: number, limit: number): string {
  return `${formatBps(bps)} = ${formatTokens(Math.floor((bps * limit) / 10000))} of ${formatTokens(limit)}`;
}
