/** Claude model tiers, cheapest first: the one list behind QUOIN_1M_DISPATCH, the dispatch decision and a skill's `model:`. */
export const MODEL_TIERS = ["haiku", "sonnet", "opus"] as const;

export type ModelTier = (typeof MODEL_TIERS)[number];

function isModelTier(value: string): value is ModelTier {
  return (MODEL_TIERS as readonly string[]).includes(value);
}

const TIER_ALT = MODEL_TIERS.join("|");

/**
 * The grammar of a 1M-dispatch setting (QUOIN_1M_DISPATCH and config.json's `1m_dispatch`), after
 * trimming and lower-casing: `on`, `off`, or a comma list of tiers.
 */
export const DISPATCH_SETTING_PATTERN = new RegExp(
  `^(on|off|(${TIER_ALT})(\\s*,\\s*(${TIER_ALT}))*)$`,
);

/** The tiers a setting lets dispatch run under the 1M header; null when the setting is not valid. */
export function dispatchSettingTiers(setting: string): readonly ModelTier[] | null {
  const value = setting.trim().toLowerCase();
  if (!DISPATCH_SETTING_PATTERN.test(value)) return null;
  if (value === "on") return MODEL_TIERS;
  if (value === "off") return [];
  return value
    .split(",")
    .map((t) => t.trim())
    .filter(isModelTier);
}
