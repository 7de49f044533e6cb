import { describe, expect, it } from "vitest";
import {
  appendRecentSession,
  RECENT_CAP_BYTES,
  RECENT_TAIL_BYTES,
} from "../../../lib/store/recent-sessions.ts";
import { fakeDeps, listFiles, readText } from "../../helpers/memfs-deps.ts";

describe("recent-sessions.md is bounded", () => {
  it("past the cap keeps only the newest whole lines, and the newest line is this prompt's", () => {
    const file = "/p/.workflow_artifacts/memory/recent-sessions.md";
    const deps = fakeDeps({ files: { [file]: "" } });
    const start = Date.parse("2026-11-01T00:00:00Z");
    for (let i = 0; i < 2000; i += 1)
      appendRecentSession(deps.fs, file, new Date(start + i * 60_000), `s-${i}`);
    const text = readText(deps, file);
    expect(text.length).toBeLessThanOrEqual(RECENT_CAP_BYTES);
    expect(text.length).toBeGreaterThan(RECENT_TAIL_BYTES / 2);
    const lines = text.trimEnd().split("\n");
    expect(lines.at(-1)).toBe(`2026-11-02T09:19:00Z | s-1999`);
    expect(lines.every((l) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z \| s-\d+$/.test(l))).toBe(
      true,
    );
    expect(
      listFiles(deps, "/p/.workflow_artifacts/memory").filter((f) => f.endsWith(".tmp")),
    ).toEqual([]);
  });
});
