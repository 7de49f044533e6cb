import { describe, expect, it } from "vitest";
import { asciiBody } from "../../../lib/core/ascii-text.ts";
import { renderCheckpoint } from "../../../lib/store/checkpoint-format.ts";
import { NO_ARTIFACTS } from "../../../lib/store/checkpoint-values.ts";
import {
  newestCheckpointOf,
  newestSessionEndSnapshot,
  SESSION_LOOKUP_LIMIT,
} from "../../../lib/store/session-checkpoints.ts";
import { CKPTS, memWorld, NOW, OTHER, SID } from "../../helpers/save-deps.ts";

const HOUR = 3600_000;
const ckpt = (sid: string, hoursAgo: number, status = "checkpoint save (voluntary)") =>
  renderCheckpoint(
    {
      status,
      currentStage: "",
      task: "t",
      branch: "b",
      sessionId: sid,
      projectHash: "h",
      savedAt: new Date(NOW.getTime() - hoursAgo * HOUR),
      artifacts: NO_ARTIFACTS,
    },
    asciiBody,
  ).text;

describe("newestCheckpointOf", () => {
  it("takes the newest `## Saved at` of this session, whatever the name shape", () => {
    const w = memWorld({
      [`${CKPTS}/2026-11-29T2000-t.md`]: ckpt(SID, 1.1),
      [`${CKPTS}/2026-11-29-t-precompact.md`]: ckpt(
        SID,
        0.5,
        "checkpoint save (precompact, auto trigger)",
      ),
      [`${CKPTS}/2026-11-29T2100-t.md`]: ckpt(OTHER, 0.1),
    });
    expect(
      newestCheckpointOf(w.deps, w.paths, SID, new Date(NOW.getTime() - 5 * HOUR).toISOString()),
    ).toEqual({ file: `${CKPTS}/2026-11-29-t-precompact.md`, savedAt: "2026-11-29T20:37:26Z" });
  });

  it("looks only at names dated on or after the session's start, and never through a symlink", () => {
    const w = memWorld({
      [`${CKPTS}/2026-11-20T2000-t.md`]: ckpt(SID, 200),
      "/elsewhere/x.md": ckpt(SID, 0.2),
    });
    (w.vol as unknown as { symlinkSync: (t: string, p: string) => void }).symlinkSync(
      "/elsewhere/x.md",
      `${CKPTS}/2026-11-29T2100-link.md`,
    );
    expect(
      newestCheckpointOf(w.deps, w.paths, SID, new Date(NOW.getTime() - 5 * HOUR).toISOString()),
    ).toBeNull();
  });

  it("reads at most SESSION_LOOKUP_LIMIT heads", () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < SESSION_LOOKUP_LIMIT + 5; i++)
      files[`${CKPTS}/2026-11-29T${String(1000 + i).padStart(4, "0")}-t.md`] = ckpt(OTHER, 1);
    files[`${CKPTS}/2026-11-29T0000-first.md`] = ckpt(SID, 20);
    const w = memWorld(files);
    expect(newestCheckpointOf(w.deps, w.paths, SID, null)).toBeNull();
  });
});

describe("newestSessionEndSnapshot", () => {
  it("the newest session-end snapshot under the age limit, not this session's", () => {
    const w = memWorld({
      [`${CKPTS}/2026-11-29T1900-a.md`]: ckpt(OTHER, 2, "checkpoint save (session end, other)"),
      [`${CKPTS}/2026-11-29T2000-b.md`]: ckpt(SID, 1, "checkpoint save (session end, clear)"),
      [`${CKPTS}/2026-11-29T2050-c.md`]: ckpt(OTHER, 0.2),
    });
    expect(newestSessionEndSnapshot(w.deps, w.paths, SID, 24 * HOUR)?.file).toBe(
      `${CKPTS}/2026-11-29T1900-a.md`,
    );
    expect(newestSessionEndSnapshot(w.deps, w.paths, SID, HOUR)).toBeNull();
  });
});
