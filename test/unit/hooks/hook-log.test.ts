import { describe, expect, it } from "vitest";
import { appendHookLog, HOOK_LOG_CAP_BYTES } from "../../../lib/hooks/hook-log.ts";
import { fakeDeps, listFiles, readText } from "../../helpers/memfs-deps.ts";

describe("hooks.log", () => {
  it("moves a full log to trash and starts a new one", () => {
    const deps = fakeDeps({ files: { "/m/logs/hooks.log": "x".repeat(HOOK_LOG_CAP_BYTES + 1) } });
    appendHookLog(
      deps.fs,
      "/m/logs/hooks.log",
      "/m",
      new Date("2026-11-29T10:00:00Z"),
      "UserPromptSubmit: boom\nsecond line",
    );
    expect(readText(deps, "/m/logs/hooks.log")).toBe(
      "2026-11-29T10:00:00Z UserPromptSubmit: boom second line\n",
    );
    expect(listFiles(deps, "/m/trash")).toEqual(["/m/trash/2026-11-29/hooks.log"]);
  });
});
