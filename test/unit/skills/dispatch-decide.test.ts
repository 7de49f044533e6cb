import { describe, expect, it } from "vitest";
import {
  decideDispatch,
  dispatchCachePath,
  dispatchSettingAllows,
  writeDispatchCache,
} from "../../../lib/skills/dispatch-decide.ts";
import { sessionProcessPid, type ProcessInfo } from "../../../lib/store/session-liveness.ts";
import { memDeps } from "../../helpers/mem-install-deps.ts";

describe("dispatch decide", () => {
  it.each([
    ["on", "sonnet", true],
    ["off", "sonnet", false],
    ["sonnet,haiku", "sonnet", true],
    ["haiku", "sonnet", false],
    ["bogus", "sonnet", undefined],
  ] as const)("QUOIN_1M_DISPATCH=%s for %s allows: %s", (setting, tier, allows) => {
    expect(dispatchSettingAllows(setting, tier)).toBe(allows);
  });

  it("env beats the config file, the config file beats the cache, nothing known means probe", () => {
    const { deps } = memDeps({
      "/home/u/.claude/quoin-checkpoint/config.json": JSON.stringify({ "1m_dispatch": "off" }),
      "/home/u/.claude/quoin-checkpoint/dispatch-cache.json": JSON.stringify({
        sonnet: { result: "safe", at: "2026-11-29T00:00:00Z" },
      }),
    });
    expect(decideDispatch(deps, "sonnet", "on")).toMatchObject({
      verdict: "dispatch",
      reason: "config",
    });
    expect(decideDispatch(deps, "sonnet", undefined)).toMatchObject({
      verdict: "safe-path",
      reason: "config",
    });
    const bare = memDeps().deps;
    expect(decideDispatch(bare, "haiku", undefined)).toMatchObject({
      verdict: "dispatch",
      reason: "probe",
    });
  });

  it("a written cache entry decides until it expires (7 days)", () => {
    const { deps, vol } = memDeps();
    writeDispatchCache(deps, "sonnet", "unsafe");
    writeDispatchCache(deps, "haiku", "safe");
    expect(JSON.parse(vol.readFileSync(dispatchCachePath(deps), "utf8") as string)).toEqual({
      sonnet: { result: "unsafe", at: "2026-11-29T21:30:00Z" },
      haiku: { result: "safe", at: "2026-11-29T21:30:00Z" },
    });
    expect(decideDispatch(deps, "sonnet", undefined)).toMatchObject({
      verdict: "safe-path",
      reason: "cache",
    });
    expect(decideDispatch(deps, "haiku", undefined)).toMatchObject({
      verdict: "dispatch",
      reason: "cache",
    });
    const later = { ...deps, now: () => new Date("2026-12-07T21:30:00Z") };
    expect(decideDispatch(later, "sonnet", undefined)).toMatchObject({
      verdict: "dispatch",
      reason: "probe",
    });
  });

  it("an unreadable cache or config is skipped, never thrown", () => {
    const { deps } = memDeps({
      "/home/u/.claude/quoin-checkpoint/config.json": "{nope",
      "/home/u/.claude/quoin-checkpoint/dispatch-cache.json": '{"sonnet": 3}',
    });
    expect(decideDispatch(deps, "sonnet", undefined)).toMatchObject({
      verdict: "dispatch",
      reason: "probe",
    });
  });
});

describe("session process for pidfiles", () => {
  const tree: Record<number, ProcessInfo> = {
    500: { ppid: 400, comm: "node" },
    400: { ppid: 300, comm: "bash" },
    300: { ppid: 200, comm: "/usr/lib/claude-code/claude" },
    200: { ppid: 1, comm: "zsh" },
  };
  it("records the nearest claude ancestor, not the short-lived shell", () => {
    expect(sessionProcessPid((p) => tree[p] ?? null, 500, 400)).toBe(300);
  });
  it("falls back to the parent when no claude ancestor exists", () => {
    expect(
      sessionProcessPid(
        (p) => (p === 300 ? { ppid: 200, comm: "sshd" } : (tree[p] ?? null)),
        500,
        400,
      ),
    ).toBe(400);
    expect(sessionProcessPid(() => null, 500, 400)).toBe(400);
  });
});

describe("process info", () => {
  it("reads /proc/<pid>/stat, comm with spaces and parentheses included", async () => {
    const { readProcessInfo } = await import("../../../lib/store/session-liveness.ts");
    const { deps } = memDeps({
      "/proc/321/stat": "321 (claude (x) y) S 300 321 300 0 -1 4194560\n",
    });
    expect(readProcessInfo(deps, 321)).toEqual({ ppid: 300, comm: "claude (x) y" });
  });
  it("falls back to ps when /proc has nothing", async () => {
    const { readProcessInfo } = await import("../../../lib/store/session-liveness.ts");
    const { deps } = memDeps(
      {},
      { run: () => ({ status: 0, stdout: "  77 /usr/bin/claude\n", stderr: "" }) },
    );
    expect(readProcessInfo(deps, 5)).toEqual({ ppid: 77, comm: "/usr/bin/claude" });
  });
});
