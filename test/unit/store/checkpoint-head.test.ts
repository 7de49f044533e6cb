import { describe, expect, it } from "vitest";
import { asciiBody } from "../../../lib/core/ascii-text.ts";
import { parseSections } from "../../../lib/core/markdown-sections.ts";
import {
  renderCheckpoint,
  renderSkeletonCheckpoint,
  type CheckpointData,
} from "../../../lib/store/checkpoint-format.ts";
import { parseCheckpoint } from "../../../lib/store/checkpoint-parse.ts";
import { NO_ARTIFACTS } from "../../../lib/store/checkpoint-values.ts";
import { newestCheckpointOf } from "../../../lib/store/session-checkpoints.ts";
import { CKPTS, memWorld, NOW, SID } from "../../helpers/save-deps.ts";

// `## Head` (CONTRACT-HANDOVER.md): the 40-hex commit HEAD pointed at, or `(none)`; a checkpoint
// written before it has no such section, read as "not recorded".

const SHA = "0123456789abcdef0123456789abcdef01234567";
const base: CheckpointData = {
  status: "checkpoint save (voluntary)",
  currentStage: "",
  task: "t",
  branch: "main",
  sessionId: SID,
  projectHash: "h",
  savedAt: NOW,
  artifacts: NO_ARTIFACTS,
};

describe("## Head", () => {
  it.each([
    ["full", (d: CheckpointData) => renderCheckpoint(d, asciiBody).text],
    ["skeleton", renderSkeletonCheckpoint],
  ])(
    "the %s format writes it after Branch and reads it back; (none) reads as null",
    (_k, render) => {
      const text = render({ ...base, head: SHA });
      const titles = parseSections(text).map((s) => s.title);
      expect(titles.slice(3, 5)).toEqual(["Branch", "Head"]);
      expect(text).toContain(`## Head\n${SHA}\n`);
      expect(parseCheckpoint(text).head).toBe(SHA);
      const none = render({ ...base, head: null });
      expect(none).toContain("## Head\n(none)\n");
      expect(parseCheckpoint(none).head).toBeNull();
    },
  );

  it("an older checkpoint without the section reads as not recorded (undefined), never an error", () => {
    const old = renderCheckpoint(base, asciiBody).text;
    expect(old).not.toContain("## Head");
    expect(parseCheckpoint(old).head).toBeUndefined();
    expect(parseCheckpoint("## Head\nnot a sha\n").head).toBeNull();
  });

  it("the session lookup SessionEnd uses carries it", () => {
    const w = memWorld({
      [`${CKPTS}/2026-11-29T2000-t.md`]: renderCheckpoint({ ...base, head: SHA }, asciiBody).text,
    });
    expect(newestCheckpointOf(w.deps, w.paths, SID, null)).toMatchObject({ head: SHA });
    const old = memWorld({
      [`${CKPTS}/2026-11-29T2000-t.md`]: renderCheckpoint(base, asciiBody).text,
    });
    expect(newestCheckpointOf(old.deps, old.paths, SID, null)?.head).toBeUndefined();
  });
});
