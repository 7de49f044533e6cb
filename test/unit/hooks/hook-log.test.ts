import { describe, expect, it } from "vitest";
import { appendHookLog, HOOK_LOG_CAP_BYTES, hookLogPath } from "../../../lib/hooks/hook-log.ts";
import { listFiles, fakeDeps, readText } from "../../helpers/memfs-deps.ts";

const LOG = "/home/u/.claude/quoin-checkpoint/logs/hooks.log";

describe("hooks.log", () => {
  it("lives in the config folder, outside every repository (CLAUDE_CONFIG_DIR when set)", () => {
    expect(hookLogPath({ env: {}, home: "/home/u" })).toBe(LOG);
    expect(hookLogPath({ env: { CLAUDE_CONFIG_DIR: "/cfg" }, home: "/home/u" })).toBe(
      "/cfg/quoin-checkpoint/logs/hooks.log",
    );
  });

  it("past the cap moves the old log to hooks.log.1 and starts a new one: at most twice the cap", () => {
    const deps = fakeDeps({
      files: { [LOG]: "x".repeat(HOOK_LOG_CAP_BYTES + 1), [`${LOG}.1`]: "oldest" },
    });
    appendHookLog(deps, "Stop: boom\nsecond line", "/home/u/proj");
    expect(readText(deps, LOG)).toBe(
      "2026-11-29T12:00:00Z Stop: boom second line (in /home/u/proj)\n",
    );
    expect(readText(deps, `${LOG}.1`)).toBe("x".repeat(HOOK_LOG_CAP_BYTES + 1));
    expect(listFiles(deps, "/home/u/.claude")).toEqual([LOG, `${LOG}.1`]);
  });

  it("never follows a symlink at the log's place, and never throws", () => {
    const deps = fakeDeps({ files: { "/home/u/.gitconfig": "[user]\n", "/home/u/.claude/x": "" } });
    deps.vol.mkdirSync("/home/u/.claude/quoin-checkpoint/logs", { recursive: true });
    deps.vol.symlinkSync("/home/u/.gitconfig", LOG);
    expect(() => appendHookLog(deps, "PreCompact: x")).not.toThrow();
    expect(readText(deps, "/home/u/.gitconfig")).toBe("[user]\n");
  });
});
