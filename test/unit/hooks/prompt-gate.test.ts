import { describe, expect, it } from "vitest";
import { readKnobs } from "../../../lib/core/knobs.ts";
import {
  advisoryLine,
  blockLine,
  PERSON_LINE_MAX,
  utilizationTier,
} from "../../../lib/hooks/prompt-gate.ts";
import type { Utilization } from "../../../lib/context/context-utilization.ts";

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

// The widest figures each field can show: seven-character token counts, a four-digit percentage,
// a long model note (it goes to the model only), a hand-set hold threshold with a fraction.
describe("the person's line is at most 200 characters, whatever the figures", () => {
  const widest: Utilization = {
    tokens: 9_876_543,
    window: 1_234_567,
    limit: 1_111_111,
    bps: 88_888,
    source: "usage",
    windowSource: "default",
    windowKnown: false,
    windowFrom: `assumed; ${"claude-some-very-long-model-name-20991231".repeat(3)} offers 200k or 1M`,
    model: "claude-some-very-long-model-name-20991231",
  };
  const knobs = readKnobs({ QUOIN_STOP_BPS: "7333", QUOIN_BLOCK_BPS: "9999" }, () => {});
  it.each(["advise", "advise-guess"] as const)("block tier, %s", (mode) => {
    const line = blockLine(widest, knobs, mode);
    expect(line).toContain("(888.8%)");
    expect(line.length).toBeLessThanOrEqual(PERSON_LINE_MAX);
  });
  it("advisory tier", () => {
    expect(advisoryLine(widest).length).toBeLessThanOrEqual(PERSON_LINE_MAX);
  });
  it("says the window is assumed and the one knob that makes it known", () => {
    expect(blockLine(widest, knobs, "advise-guess")).toContain(
      "window 1.23M assumed; QUOIN_CONTEXT_WINDOW sets it",
    );
  });
});
