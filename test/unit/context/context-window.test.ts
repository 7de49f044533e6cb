import { describe, expect, it } from "vitest";
import {
  basisPoints,
  chooseWindow,
  effectiveLimit,
  formatTokens,
  modelWindows,
  settingNamesModel,
} from "../../../lib/context/context-window.ts";

const B = 33000;

describe("chooseWindow: each source in order", () => {
  const all = {
    buffer: B,
    envWindow: 500000,
    recorded: 1000000,
    setting: { window: 1000000, where: "ANTHROPIC_MODEL=claude-sonnet-4-5[1m]" },
    model: "claude-sonnet-4-5-20250929",
    tokens: 1000,
  };
  it("QUOIN_CONTEXT_WINDOW first", () => {
    expect(chooseWindow(all)).toEqual({
      window: 500000,
      limit: 467000,
      source: "env",
      known: true,
      from: "QUOIN_CONTEXT_WINDOW",
    });
  });
  it("then the status line's record", () => {
    expect(chooseWindow({ ...all, envWindow: undefined })).toMatchObject({
      window: 1000000,
      source: "statusline",
      known: true,
      from: "the status line",
    });
  });
  it("then a model setting Claude Code exposes", () => {
    expect(chooseWindow({ ...all, envWindow: undefined, recorded: undefined })).toMatchObject({
      window: 1000000,
      limit: 967000,
      source: "model-setting",
      known: true,
      from: "ANTHROPIC_MODEL=claude-sonnet-4-5[1m]",
    });
  });
  it("then the model table, only for a model with one window", () => {
    expect(chooseWindow({ buffer: B, model: "claude-opus-4-8" })).toMatchObject({
      window: 1000000,
      source: "model-table",
      known: true,
    });
    expect(chooseWindow({ buffer: B, model: "claude-haiku-4-5-20251001" })).toMatchObject({
      window: 200000,
      source: "model-table",
      known: true,
    });
  });
  it("else the default, a guess that says why", () => {
    expect(chooseWindow({ buffer: B, model: "claude-sonnet-4-5-20250929" })).toEqual({
      window: 200000,
      limit: 167000,
      source: "default",
      known: false,
      from: "assumed; claude-sonnet-4-5-20250929 offers 200k or 1M",
    });
    expect(chooseWindow({ buffer: B, model: "claude-opus-4-6" })).toMatchObject({
      source: "default",
      known: false,
    });
    expect(chooseWindow({ buffer: B, model: "gpt-oss" })).toMatchObject({
      window: 200000,
      known: false,
      from: "assumed; model gpt-oss not in the table",
    });
    expect(chooseWindow({ buffer: B })).toMatchObject({
      window: 200000,
      source: "default",
      known: false,
      from: "assumed",
    });
  });
  it("a hand-set 100 % limit is not a guess", () => {
    expect(
      chooseWindow({ buffer: B, model: "claude-sonnet-4-5", limitOverride: 150000 }),
    ).toMatchObject({ window: 200000, limit: 150000, source: "default", known: true });
  });
});

describe("evidence beats a guess", () => {
  it("usage above the assumed window proves the smallest known window that holds it", () => {
    // The case: 250,005 tokens of claude-sonnet-4-5, which was shown as 149.7 % of 167k.
    expect(chooseWindow({ buffer: B, model: "claude-sonnet-4-5", tokens: 250005 })).toEqual({
      window: 1000000,
      limit: 967000,
      source: "usage",
      known: true,
      from: "usage 250k is over 200k: at least 1M",
    });
  });
  it("usage at the window proves nothing", () => {
    expect(chooseWindow({ buffer: B, model: "claude-sonnet-4-5", tokens: 200000 })).toMatchObject({
      window: 200000,
      source: "default",
    });
  });
  it("beats the table and a setting, never the env knob or the status line", () => {
    expect(chooseWindow({ buffer: B, model: "claude-haiku-4-5", tokens: 300000 })).toMatchObject({
      window: 1000000,
      source: "usage",
    });
    expect(
      chooseWindow({
        buffer: B,
        setting: { window: 200000, where: "CLAUDE_CODE_DISABLE_1M_CONTEXT=1" },
        tokens: 300000,
      }),
    ).toMatchObject({ window: 1000000, source: "usage" });
    expect(chooseWindow({ buffer: B, envWindow: 200000, tokens: 300000 })).toMatchObject({
      window: 200000,
      source: "env",
    });
    expect(chooseWindow({ buffer: B, recorded: 200000, tokens: 300000 })).toMatchObject({
      window: 200000,
      source: "statusline",
    });
  });
  it("past every known window, keeps what it had", () => {
    expect(chooseWindow({ buffer: B, model: "claude-opus-4-8", tokens: 1_200_000 })).toMatchObject({
      window: 1000000,
      source: "model-table",
    });
  });
});

describe("model table", () => {
  it.each([
    ["claude-sonnet-4-5[1m]", [1000000]],
    ["claude-sonnet-5", [1000000]],
    ["claude-opus-4-7", [1000000]],
    ["claude-opus-4-8", [1000000]],
    ["claude-fable-5", [1000000]],
    ["claude-opus-4-6", [200000, 1000000]],
    ["claude-sonnet-4-5-20250929", [200000, 1000000]],
    ["claude-sonnet-4-20250514", [200000, 1000000]],
    ["claude-opus-4-5-20251101", [200000]],
    ["claude-opus-4-1-20250805", [200000]],
    ["claude-haiku-4-5-20251001", [200000]],
    ["claude-3-5-haiku-20241022", [200000]],
    ["mystery-model", undefined],
  ])("%s -> %j", (model, windows) => {
    expect(modelWindows(model)).toEqual(windows);
  });
});

describe("a setting names the transcript's model", () => {
  it.each([
    ["claude-sonnet-4-5[1m]", "claude-sonnet-4-5-20250929", true],
    ["claude-sonnet-4-5-20250929[1m]", "claude-sonnet-4-5", true],
    ["sonnet[1m]", "claude-sonnet-4-5-20250929", true],
    ["sonnet[1m]", "claude-opus-4-6", false],
    ["opus[1m]", "claude-opus-4-6", true],
    ["claude-sonnet-4-5[1m]", "claude-sonnet-4-6", false],
    ["claude-opus-4-6[1m]", "claude-opus-4-6-20260101", true],
  ])("%s names %s: %s", (value, model, yes) => {
    expect(settingNamesModel(value, model)).toBe(yes);
  });
});

describe("limit and figures", () => {
  it("derives 167k from a 200k window and 967k from 1M, unclamped basis points", () => {
    expect(effectiveLimit(200000, 33000)).toBe(167000);
    expect(effectiveLimit(1000000, 33000)).toBe(967000);
    expect(effectiveLimit(200000, 33000, 150000)).toBe(150000);
    expect(effectiveLimit(30000, 33000)).toBe(15000);
    expect(basisPoints(106060, 167000)).toBe(6350);
    expect(basisPoints(200000, 167000)).toBe(11976);
  });
  it("formats tokens", () => {
    expect([950, 158_400, 1_000_000, 1_250_000, 10_000_000].map(formatTokens)).toEqual([
      "950",
      "158k",
      "1M",
      "1.25M",
      "10M",
    ]);
  });
});
