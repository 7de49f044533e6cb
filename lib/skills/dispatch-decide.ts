import { readTextByRule } from "../core/file-range.ts";
import * as path from "node:path";
import * as z from "zod/mini";
import type { Deps } from "../core/deps.ts";
import { writeAtomic } from "../core/atomic-write.ts";
import { DAY_MS, utcIso } from "../core/time-format.ts";
import { claudeConfigDir } from "../core/config-dir.ts";
import { dispatchSettingTiers, MODEL_TIERS, type ModelTier } from "../core/model-tiers.ts";

// The seed's pre-dispatch 1M check (section 0, "IVG-90 Layer 1+2"): before a skill hands its work to
// a cheaper-tier subagent, decide whether that subagent can run under this session's 1M-context
// header. Sources in order: QUOIN_1M_DISPATCH, the user config file, the per-tier cache; with none
// of them the dispatch itself is the probe (fail-open), and its outcome is written to the cache.

export type Tier = ModelTier;
export const TierSchema = z.enum(MODEL_TIERS);

/** How long a cached probe result is trusted: credits and plans change. */
const DISPATCH_CACHE_TTL_MS = 7 * DAY_MS;

export type DispatchVerdict = "dispatch" | "safe-path";
export type DispatchReason = "config" | "cache" | "probe";

export interface DispatchDecision {
  verdict: DispatchVerdict;
  reason: DispatchReason;
  detail: string;
}

/** `on`: every tier may be dispatched; `off`: none; `sonnet,haiku`: only those; undefined: not a valid setting. */
export function dispatchSettingAllows(setting: string, tier: Tier): boolean | undefined {
  return dispatchSettingTiers(setting)?.includes(tier);
}

function quoinConfigDir(deps: Pick<Deps, "env" | "home">): string {
  return path.join(claudeConfigDir(deps.env, deps.home), "quoin-checkpoint");
}

const userConfigPath = (deps: Pick<Deps, "env" | "home">) =>
  path.join(quoinConfigDir(deps), "config.json");
export const dispatchCachePath = (deps: Pick<Deps, "env" | "home">) =>
  path.join(quoinConfigDir(deps), "dispatch-cache.json");

const UserConfigSchema = z.looseObject({ "1m_dispatch": z.optional(z.string()) });
export const CacheResultSchema = z.enum(["safe", "unsafe"]);
const CacheEntrySchema = z.object({ result: CacheResultSchema, at: z.string() });
const CacheSchema = z.record(z.string(), CacheEntrySchema);
export type DispatchCache = z.infer<typeof CacheSchema>;

function readJson(deps: Deps, file: string): unknown {
  try {
    return JSON.parse(readTextByRule(deps.fs, file));
  } catch {
    return undefined;
  }
}

function readDispatchCache(deps: Deps): DispatchCache {
  const parsed = CacheSchema.safeParse(readJson(deps, dispatchCachePath(deps)));
  return parsed.success ? parsed.data : {};
}

/**
 * Decide for one declared tier. `knobSetting` is QUOIN_1M_DISPATCH as the knobs registry parsed it
 * (undefined when unset or invalid: readKnobs has said so once). Never throws: an unreadable source
 * is skipped (fail-open).
 */
export function decideDispatch(
  deps: Deps,
  tier: Tier,
  knobSetting: string | undefined,
): DispatchDecision {
  if (knobSetting !== undefined) {
    const allows = dispatchSettingAllows(knobSetting, tier);
    if (allows !== undefined) {
      return {
        verdict: allows ? "dispatch" : "safe-path",
        reason: "config",
        detail: `QUOIN_1M_DISPATCH=${knobSetting}`,
      };
    }
  }
  const config = UserConfigSchema.safeParse(readJson(deps, userConfigPath(deps)));
  const fromFile = config.success ? config.data["1m_dispatch"] : undefined;
  if (fromFile !== undefined) {
    const allows = dispatchSettingAllows(fromFile, tier);
    if (allows !== undefined) {
      return {
        verdict: allows ? "dispatch" : "safe-path",
        reason: "config",
        detail: `${userConfigPath(deps)}: 1m_dispatch=${fromFile}`,
      };
    }
  }
  const entry = readDispatchCache(deps)[tier];
  if (entry) {
    const age = deps.now().getTime() - Date.parse(entry.at);
    if (age >= 0 && age < DISPATCH_CACHE_TTL_MS) {
      return {
        verdict: entry.result === "safe" ? "dispatch" : "safe-path",
        reason: "cache",
        detail: `${tier} cached ${entry.result} at ${entry.at}`,
      };
    }
  }
  return {
    verdict: "dispatch",
    reason: "probe",
    detail: `no setting and no fresh cache for ${tier}: the dispatch is the probe`,
  };
}

/** Record a probe outcome for one tier; other tiers' entries are kept. */
export function writeDispatchCache(deps: Deps, tier: Tier, result: "safe" | "unsafe"): string {
  const cache = readDispatchCache(deps);
  cache[tier] = { result, at: utcIso(deps.now()) };
  const file = dispatchCachePath(deps);
  writeAtomic(deps.fs, file, `${JSON.stringify(cache, null, 2)}\n`, { pid: deps.pid });
  return file;
}
