import { describe, expect, it } from "vitest";
import { runCli } from "../../../cli/run-cli.ts";
import { restoreCommand } from "../../../cli/commands/restore.ts";
import { handleSessionStart } from "../../../lib/hooks/session-start.ts";
import { isSessionRunning } from "../../../lib/store/session-liveness.ts";
import { readRegistry, writeRegistry } from "../../../lib/store/session-registry.ts";
import { MemoryFixture, ROOT } from "../../helpers/memory-fixture.ts";
import type { Deps } from "../../../lib/core/deps.ts";

const CUR = "cccc0000-0000-0000-0000-000000000001";
const OTHER = "258c0000-0000-0000-0000-000000000002";
const CONFIG = "/home/dev/.claude";
const stat = (pid: number, comm: string, ppid: number, start: number) =>
  `${pid} (${comm}) S ${ppid} 1 1 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 ${start} 0 0\n`;

function world(alive: (pid: number) => boolean) {
  const f = new MemoryFixture();
  const deps = (): Deps => ({ ...f.deps(), isProcessAlive: alive });
  const restore = (argv: string[]) => {
    let out = "";
    runCli(
      ["restore", "--session", CUR, ...argv],
      deps(),
      { stdout: (t) => (out += t), stderr: () => {}, readStdin: () => "" },
      [restoreCommand],
    );
    return out;
  };
  return { f, deps, restore };
}

describe("running sessions", () => {
  it("SessionStart records the Claude Code process (the ancestor named claude, not the hook's shell), its start and cwd", () => {
    const { f, deps } = world(() => true);
    // hook node 4242 <- sh 4200 <- claude 4100 <- bash 1
    f.write("/proc/4242/stat", stat(4242, "node", 4200, 900));
    f.write("/proc/4200/stat", stat(4200, "sh", 4100, 800));
    f.write("/proc/4100/stat", stat(4100, "claude", 1, 700));
    handleSessionStart(
      deps(),
      { session_id: CUR, cwd: `${ROOT}/sub`, hook_event_name: "SessionStart", source: "startup" },
      f.knobs(),
    );
    expect(readRegistry(deps(), CONFIG, "process", CUR)).toEqual({
      pid: 4100,
      start: "700",
      startedAt: "2026-11-29T12:00:00Z",
      cwd: `${ROOT}/sub`,
    });
    expect(isSessionRunning(deps(), CONFIG, CUR)).toBe(true);
    // the pid now names another process (other start): not this session
    f.write("/proc/4100/stat", stat(4100, "claude", 1, 7000));
    expect(isSessionRunning(deps(), CONFIG, CUR)).toBe(false);
  });
  it("records nothing when no ancestor is Claude Code, so no session is called running", () => {
    const { f, deps } = world(() => true);
    handleSessionStart(
      deps(),
      { session_id: CUR, cwd: ROOT, hook_event_name: "SessionStart", source: "startup" },
      f.knobs(),
    );
    expect(readRegistry(deps(), CONFIG, "process", CUR)).toBeNull();
    expect(isSessionRunning(deps(), CONFIG, CUR)).toBe(false);
  });
  it("the picker and the restore say that a checkpoint's session is still running; an explicit pick goes ahead", () => {
    const { f, deps, restore } = world((pid) => pid === 777);
    f.sentinel(
      OTHER,
      f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01, sessionId: OTHER }),
    );
    f.checkpoint("2026-11-29T1000-beta.md", {
      task: "beta",
      ageDays: 0.02,
      sessionId: "dddd0000-0000-0000-0000-000000000003",
    });
    writeRegistry(deps(), CONFIG, "process", OTHER, {
      pid: 777,
      start: null,
      startedAt: "x",
      cwd: ROOT,
    });
    writeRegistry(deps(), CONFIG, "process", "dddd0000-0000-0000-0000-000000000003", {
      pid: 778,
      start: null,
      startedAt: "x",
      cwd: ROOT,
    });
    const list = restore([]);
    expect(list).toContain(": alpha [main]");
    expect(list).toMatch(
      /alpha.*\(session 258c0000\.\.\. is still running: two sessions would now work on one task\)/,
    );
    expect(list).not.toMatch(/beta.*still running/);
    const picked = JSON.parse(restore(["--pick", "1", "--json"]));
    expect(picked.show).toContain(
      "[checkpoint] WARNING: session 258c0000... is still running: two sessions would now work on one task.",
    );
    expect(picked.action).toBe("restore");
  });
  it("a session that SessionEnd marked ended is not running even if its pid lives", () => {
    const { deps } = world(() => true);
    writeRegistry(deps(), CONFIG, "process", OTHER, {
      pid: 777,
      start: null,
      startedAt: "x",
      cwd: ROOT,
    });
    expect(isSessionRunning(deps(), CONFIG, OTHER)).toBe(true);
    writeRegistry(deps(), CONFIG, "ended", OTHER, { at: "x" });
    expect(isSessionRunning(deps(), CONFIG, OTHER)).toBe(false);
  });
});

describe("B3 synthesis declined", () => {
  it("is not offered again for the same session-state file, in this session or another; a newer version is offered", () => {
    const { f, restore } = world(() => false);
    f.sessionState("2026-11-29-gamma.md", "## Current stage\nworking\n", 0.01);
    const first = JSON.parse(restore(["--json"]));
    expect(first.action).toBe("synthesize");
    const declined = JSON.parse(restore(["--json", "--decline-synthesis"]));
    expect(declined.action).toBe("none");
    expect(declined.show.join("\n")).toContain("was declined before; not offered again");
    const again = JSON.parse(restore(["--json"]));
    expect(again.action).toBe("none");
    let other = "";
    runCli(
      ["restore", "--json", "--session", OTHER],
      { ...f.deps(), isProcessAlive: () => false },
      { stdout: (t) => (other += t), stderr: () => {}, readStdin: () => "" },
      [restoreCommand],
    );
    expect(JSON.parse(other).action).toBe("none");
    // asked for explicitly, it still runs
    expect(JSON.parse(restore(["--json", "--synthesize"])).action).toBe("restore");
    f.sessionState("2026-11-29-gamma.md", "## Current stage\nmore work\n", 0.001);
    expect(JSON.parse(restore(["--json"])).action).toBe("synthesize");
  });
});
