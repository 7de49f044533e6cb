import { describe, expect, it } from "vitest";
import { resolveSessionId } from "../../../lib/store/session-id-resolve.ts";
import { fakeDeps } from "../../helpers/memfs-deps.ts";

describe("session id for the engine", () => {
  const dir = "/home/u/.claude/projects/-home-u-proj";
  it("prefers --session, then CLAUDE_CODE_SESSION_ID, then the newest transcript", () => {
    const deps = fakeDeps({
      files: {
        [`${dir}/old-1.jsonl`]: "",
        [`${dir}/new-2.jsonl`]: "",
        [`${dir}/agent-a1.jsonl`]: "",
      },
    });
    deps.touch(`${dir}/old-1.jsonl`, "2026-11-28T00:00:00Z");
    deps.touch(`${dir}/new-2.jsonl`, "2026-11-29T00:00:00Z");
    deps.touch(`${dir}/agent-a1.jsonl`, "2026-11-29T05:00:00Z");
    expect(resolveSessionId(deps, "flag-1", "/home/u/proj")).toEqual({
      ok: true,
      id: "flag-1",
      source: "flag",
    });
    expect(
      resolveSessionId(
        { ...deps, env: { CLAUDE_CODE_SESSION_ID: "env-1" } },
        undefined,
        "/home/u/proj",
      ),
    ).toEqual({ ok: true, id: "env-1", source: "env" });
    expect(resolveSessionId(deps, undefined, "/home/u/proj")).toEqual({
      ok: true,
      id: "new-2",
      source: "newest-transcript",
    });
  });
  it("refuses an invalid id instead of falling through", () => {
    const deps = fakeDeps();
    const r = resolveSessionId(deps, "../../etc/x", "/home/u/proj");
    expect(r.ok).toBe(false);
    expect(resolveSessionId(deps, undefined, "/home/u/proj").ok).toBe(false);
  });
});
