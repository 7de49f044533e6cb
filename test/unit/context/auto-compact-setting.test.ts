import { describe, expect, it } from "vitest";
import {
  autoCompactWindow,
  parseAutoCompactWindow,
} from "../../../lib/context/auto-compact-setting.ts";
import { chooseWindow } from "../../../lib/context/context-window.ts";
import { measureUtilization } from "../../../lib/context/context-utilization.ts";
import { readSettings } from "../../../lib/context/settings-files.ts";
import { readKnobs } from "../../../lib/core/knobs.ts";
import { fakeDeps } from "../../helpers/memfs-deps.ts";
import { transcriptWithTokens } from "../../helpers/transcripts.ts";

const B = 33000;
const CONFIG = "/home/u/.claude";
const ROOT = "/repo";

describe("the auto-compact window as the client reads it", () => {
  it.each([
    ["150000", 150_000],
    ["150k", 150_000],
    [" 1.5M ", 1_500_000],
    [120000, 120_000],
    ["50000", 100_000], // under the clients' floor: the floor
    ["lots", undefined],
    ["", undefined],
    [true, undefined],
  ] as const)("%j is %s", (raw, want) => {
    expect(parseAutoCompactWindow(raw)).toBe(want);
  });

  const places = (env: Record<string, string> = {}) => ({
    env,
    configDir: CONFIG,
    projectRoot: ROOT,
  });
  it("the environment variable before any settings file", () => {
    const { fs } = fakeDeps({
      files: { [`${CONFIG}/settings.json`]: '{"autoCompactWindow": 300000}' },
    });
    expect(
      autoCompactWindow(readSettings(fs, places({ CLAUDE_CODE_AUTO_COMPACT_WINDOW: "150k" }))),
    ).toEqual({
      window: 150_000,
      where: "CLAUDE_CODE_AUTO_COMPACT_WINDOW=150k",
    });
  });
  it("local, then project, then user settings; none set: null", () => {
    const files = {
      [`${CONFIG}/settings.json`]: '{"autoCompactWindow": 300000}',
      [`${ROOT}/.claude/settings.json`]: '{"autoCompactWindow": 250000}',
      [`${ROOT}/.claude/settings.local.json`]: '{"model": "opus"}',
    };
    expect(autoCompactWindow(readSettings(fakeDeps({ files }).fs, places()))?.window).toBe(250_000);
    delete (files as Record<string, string>)[`${ROOT}/.claude/settings.json`];
    expect(autoCompactWindow(readSettings(fakeDeps({ files }).fs, places()))).toEqual({
      window: 300_000,
      where: `autoCompactWindow 300000 in ${CONFIG}/settings.json`,
    });
    expect(autoCompactWindow(readSettings(fakeDeps({}).fs, places()))).toBeNull();
  });
});

describe("chooseWindow with an auto-compact window", () => {
  const ac = { window: 150_000, where: "CLAUDE_CODE_AUTO_COMPACT_WINDOW=150000" };
  it("settles an assumed window when it is no larger than the assumption: the block tier can hold", () => {
    const assumed = chooseWindow({ buffer: B, model: "claude-sonnet-4-5" });
    expect(assumed).toMatchObject({ window: 200_000, source: "default", known: false });
    expect(chooseWindow({ buffer: B, model: "claude-sonnet-4-5", autoCompact: ac })).toEqual({
      window: 150_000,
      limit: 117_000,
      source: "auto-compact",
      known: true,
      from: "auto-compact window: CLAUDE_CODE_AUTO_COMPACT_WINDOW=150000",
    });
  });
  it("lowers a known window; one larger than the window changes nothing (the client clamps it)", () => {
    const recorded = { buffer: B, recorded: 1_000_000, autoCompact: ac };
    expect(chooseWindow(recorded)).toMatchObject({ window: 150_000, source: "auto-compact" });
    const big = { window: 400_000, where: "x" };
    expect(chooseWindow({ buffer: B, recorded: 200_000, autoCompact: big })).toMatchObject({
      window: 200_000,
      source: "statusline",
    });
    expect(chooseWindow({ buffer: B, model: "claude-sonnet-4-5", autoCompact: big })).toMatchObject(
      { source: "default", known: false },
    );
  });
  it("QUOIN_CONTEXT_WINDOW, set by hand for quoin, stays as set", () => {
    expect(chooseWindow({ buffer: B, envWindow: 500_000, autoCompact: ac })).toMatchObject({
      window: 500_000,
      source: "env",
    });
  });
});

describe("measureUtilization reads the auto-compact window", () => {
  const knobs = readKnobs({}, () => {});
  const t = `${CONFIG}/projects/p/s.jsonl`;
  it("90k tokens of an assumed 200k window is quiet; of a 100k auto-compact window, past the hold threshold", () => {
    const files = { [t]: transcriptWithTokens(90_000, "claude-sonnet-4-5-20250929") };
    const base = { transcriptPath: t, knobs, configDir: CONFIG, projectRoot: ROOT };
    const plain = measureUtilization({ ...base, deps: fakeDeps({ files }), sourcesFromBps: 7000 });
    expect(plain).toMatchObject({ windowKnown: false, limit: 167_000 });
    const set = measureUtilization({
      ...base,
      deps: fakeDeps({
        files: { ...files, [`${CONFIG}/settings.json`]: '{"autoCompactWindow": 100000}' },
      }),
      sourcesFromBps: 7000,
    });
    expect(set).toMatchObject({ windowKnown: true, window: 100_000, limit: 67_000 });
    expect(set?.bps).toBeGreaterThanOrEqual(9500);
  });
});
