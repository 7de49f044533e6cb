import { describe, expect, it } from "vitest";
import { readKnobs } from "../../../lib/core/knobs.ts";
import { utilizationTier } from "../../../lib/hooks/prompt-gate.ts";

// One basis point below, at and above each threshold: `>=` turned into `>` (or `<`) fails a row.
describe("prompt tiers at their thresholds", () => {
  const knobs = readKnobs({ QUOIN_STOP_BPS: "7000", QUOIN_BLOCK_BPS: "9500" }, () => {});
  it.each([
    [6999, "quiet"],
    [7000, "advisory"],
    [7001, "advisory"],
    [9499, "advisory"],
    [9500, "block"],
    [9501, "block"],
  ] as const)("%i bps is %s", (bps, tier) => {
    expect(utilizationTier(bps, knobs)).toBe(tier);
  });
});
