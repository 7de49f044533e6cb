import { describe, expect, it } from "vitest";
import { describeUsage, formatTokens } from "../../../lib/context/context-window.ts";

describe("numbers in messages", () => {
  it("shows tokens and the limit beside the percentage", () => {
    expect(describeUsage(158000, 167000, 9461)).toBe("context 158k of 167k (94.6%)");
    expect(formatTokens(967000)).toBe("967k");
    expect(formatTokens(1000000)).toBe("1M");
    expect(formatTokens(1250000)).toBe("1.25M");
    expect(formatTokens(950)).toBe("950");
  });
});
