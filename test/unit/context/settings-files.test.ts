import { describe, expect, it } from "vitest";
import { measureUtilization } from "../../../lib/context/context-utilization.ts";
import { readKnobs } from "../../../lib/core/knobs.ts";
import type { FsApi } from "../../../lib/core/deps.ts";
import { fakeDeps } from "../../helpers/memfs-deps.ts";
import { transcriptWithTokens } from "../../helpers/transcripts.ts";

const CONFIG = "/home/u/.claude";
const ROOT = "/repo";
const T = `${CONFIG}/projects/p/s.jsonl`;
const SETTINGS = [
  `${ROOT}/.claude/settings.local.json`,
  `${ROOT}/.claude/settings.json`,
  `${CONFIG}/settings.json`,
];

/** The deps with every open of a settings file counted. */
function counted(files: Record<string, string>) {
  const deps = fakeDeps({ files });
  const opens = new Map<string, number>();
  const openSync = deps.fs.openSync.bind(deps.fs) as (...a: unknown[]) => number;
  const fs = {
    ...deps.fs,
    openSync: (...args: unknown[]) => {
      const file = String(args[0]);
      if (SETTINGS.includes(file)) opens.set(file, (opens.get(file) ?? 0) + 1);
      return openSync(...args);
    },
  } as unknown as FsApi;
  return { deps: { ...deps, fs }, opens };
}

describe("the settings files on a prompt that reads them", () => {
  const knobs = readKnobs({}, () => {});
  it("the model setting and the auto-compact window come from one read of each file", () => {
    const { deps, opens } = counted({
      [T]: transcriptWithTokens(150_000, "claude-sonnet-4-5-20250929"),
      [`${ROOT}/.claude/settings.local.json`]: '{"permissions": {}}',
      [`${ROOT}/.claude/settings.json`]: '\ufeff{"autoCompactWindow": "300k"}',
      [`${CONFIG}/settings.json`]: '{"model": "sonnet[1m]"}',
    });
    const u = measureUtilization({
      deps,
      transcriptPath: T,
      knobs,
      configDir: CONFIG,
      projectRoot: ROOT,
      sourcesFromBps: 7000,
    });
    expect(u).toMatchObject({ window: 300_000, windowKnown: true, source: "usage" });
    expect(Object.fromEntries(opens)).toEqual(Object.fromEntries(SETTINGS.map((f) => [f, 1])));
  });
});
