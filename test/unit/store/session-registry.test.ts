import { describe, expect, it } from "vitest";
import { claudeConfigDir } from "../../../lib/core/config-dir.ts";
import {
  deleteRegistry,
  listRegistry,
  pruneRegistry,
  readRegistry,
  registryPath,
  sessionRegistryDir,
  writeRegistry,
} from "../../../lib/store/session-registry.ts";
import { fakeDeps, listFiles } from "../../helpers/memfs-deps.ts";

const CFG = "/home/u/.claude";
const SID = "258c1a2b-0000-4000-8000-000000000001";

describe("claudeConfigDir", () => {
  it("takes CLAUDE_CONFIG_DIR when set and non-empty, else ~/.claude", () => {
    expect(claudeConfigDir({ CLAUDE_CONFIG_DIR: "/cfg" }, "/home/u")).toBe("/cfg");
    expect(claudeConfigDir({ CLAUDE_CONFIG_DIR: "" }, "/home/u")).toBe("/home/u/.claude");
    expect(claudeConfigDir({}, "/home/u")).toBe("/home/u/.claude");
  });
});

describe("session registry", () => {
  it("writes one 0600 file per kind and session under <config>/quoin-checkpoint/state and reads it back", () => {
    const deps = fakeDeps();
    writeRegistry(deps, CFG, "process", SID, { pid: 123, startedAt: "x", cwd: "/p" });
    const file = registryPath(CFG, "process", SID);
    expect(file).toBe(`${sessionRegistryDir(CFG)}/process-${SID}.json`);
    expect(sessionRegistryDir(CFG)).toBe("/home/u/.claude/quoin-checkpoint/state");
    expect(deps.fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(readRegistry(deps, CFG, "process", SID)).toEqual({
      pid: 123,
      startedAt: "x",
      cwd: "/p",
    });
    expect(readRegistry(deps, CFG, "window", SID)).toBeNull();
    expect(listFiles(deps, sessionRegistryDir(CFG))).toEqual([file]);
  });
  it("refuses a session id that is not a file-name part, and reads such an id as absent", () => {
    const deps = fakeDeps();
    expect(() => writeRegistry(deps, CFG, "process", "../x", {})).toThrow(/not valid/);
    expect(() => registryPath(CFG, "process", "")).toThrow();
    expect(readRegistry(deps, CFG, "process", "../x")).toBeNull();
  });
  it("reads a file that is not a JSON object as absent", () => {
    const deps = fakeDeps({ files: { [`${sessionRegistryDir(CFG)}/process-${SID}.json`]: "[1]" } });
    expect(readRegistry(deps, CFG, "process", SID)).toBeNull();
  });
  it("lists and deletes entries of one kind", () => {
    const deps = fakeDeps();
    writeRegistry(deps, CFG, "b3-declined", "s2", {});
    writeRegistry(deps, CFG, "b3-declined", "s1", {});
    writeRegistry(deps, CFG, "process", "s3", {});
    expect(listRegistry(deps, CFG, "b3-declined")).toEqual(["s1", "s2"]);
    expect(deleteRegistry(deps, CFG, "b3-declined", "s1")).toBe(true);
    expect(deleteRegistry(deps, CFG, "b3-declined", "s1")).toBe(false);
    expect(listRegistry(deps, CFG, "b3-declined")).toEqual(["s2"]);
  });
  it("prunes entries and crashed temp files older than the age, keeps newer ones and foreign files", () => {
    const deps = fakeDeps();
    const dir = sessionRegistryDir(CFG);
    writeRegistry(deps, CFG, "process", "old", {});
    writeRegistry(deps, CFG, "process", "new", {});
    deps.vol.writeFileSync(`${dir}/.process-x.json.1.1.tmp`, "");
    deps.vol.writeFileSync(`${dir}/README`, "mine");
    deps.touch(`${dir}/process-old.json`, "2026-11-20T12:00:00Z");
    deps.touch(`${dir}/.process-x.json.1.1.tmp`, "2026-11-20T12:00:00Z");
    deps.touch(`${dir}/README`, "2026-11-01T12:00:00Z");
    pruneRegistry(deps, CFG, 7 * 24 * 3600 * 1000);
    expect(listFiles(deps, dir)).toEqual([`${dir}/README`, `${dir}/process-new.json`]);
  });
  it("prune of a missing folder does nothing", () => {
    const deps = fakeDeps();
    pruneRegistry(deps, CFG, 1);
    expect(listFiles(deps)).toEqual([]);
  });
});
