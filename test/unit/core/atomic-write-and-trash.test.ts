import { describe, expect, it } from "vitest";
import { createExclusive, createUnique, writeAtomic } from "../../../lib/core/atomic-write.ts";
import { trashIfPresent, trashMove } from "../../../lib/core/trash.ts";
import { fakeDeps, listFiles, readText } from "../../helpers/memfs-deps.ts";
import { appendRecentSession } from "../../../lib/store/recent-sessions.ts";
import type { FsApi as FakeFs } from "../../../lib/core/deps.ts";

describe("writes", () => {
  it("writeAtomic replaces whole and leaves no temp file", () => {
    const deps = fakeDeps({ files: { "/d/a.txt": "old" } });
    writeAtomic(deps.fs, "/d/a.txt", "new", { mode: 0o600 });
    expect(readText(deps, "/d/a.txt")).toBe("new");
    expect(listFiles(deps, "/d")).toEqual(["/d/a.txt"]);
  });
  it("createExclusive never replaces an existing file", () => {
    const deps = fakeDeps({ files: { "/d/a.txt": "first" } });
    expect(createExclusive(deps.fs, "/d/a.txt", "second")).toBe(false);
    expect(readText(deps, "/d/a.txt")).toBe("first");
    expect(createExclusive(deps.fs, "/d/b.txt", "mine", { mode: 0o600 })).toBe(true);
    expect(deps.fs.statSync("/d/b.txt").mode & 0o777).toBe(0o600);
    expect(listFiles(deps, "/d")).toEqual(["/d/a.txt", "/d/b.txt"]);
  });
  it("createUnique takes the next free name", () => {
    const deps = fakeDeps();
    const names = (n: number) => `x${n > 1 ? `-${n}` : ""}.md`;
    expect(createUnique(deps.fs, "/c", names, "1")).toBe("/c/x.md");
    expect(createUnique(deps.fs, "/c", names, "2")).toBe("/c/x-2.md");
    expect(createUnique(deps.fs, "/c", names, "3")).toBe("/c/x-3.md");
    expect(readText(deps, "/c/x-2.md")).toBe("2");
  });
});

describe("trash", () => {
  it("moves into trash/<date>/ and never overwrites an earlier trashed file", () => {
    const deps = fakeDeps({ files: { "/m/a.txt": "one" } });
    const now = new Date("2026-11-29T10:00:00Z");
    expect(trashMove(deps.fs, "/m/a.txt", "/m", now)).toBe("/m/trash/2026-11-29/a.txt");
    deps.fs.writeFileSync("/m/a.txt", "two");
    expect(trashMove(deps.fs, "/m/a.txt", "/m", now)).toBe("/m/trash/2026-11-29/a.txt-2");
    expect(readText(deps, "/m/trash/2026-11-29/a.txt")).toBe("one");
    expect(readText(deps, "/m/trash/2026-11-29/a.txt-2")).toBe("two");
    expect(deps.fs.existsSync("/m/a.txt")).toBe(false);
  });
  it("never moves a folder (link fails with EPERM on a folder, and the rename fallback would take it whole)", () => {
    const deps = fakeDeps({ files: { "/m/dir/inside.txt": "kept" } });
    expect(trashIfPresent(deps.fs, "/m/dir", "/m", new Date("2026-11-29T10:00:00Z"))).toBeNull();
    expect(() => trashMove(deps.fs, "/m/dir", "/m", new Date("2026-11-29T10:00:00Z"))).toThrow(
      /not a regular file/,
    );
    expect(readText(deps, "/m/dir/inside.txt")).toBe("kept");
  });
  it("trashIfPresent is quiet about a missing file", () => {
    const deps = fakeDeps();
    expect(trashIfPresent(deps.fs, "/m/none.txt", "/m", new Date())).toBeNull();
  });
});

describe("the memory folder's .gitignore (git status stays clean)", () => {
  const MEM = "/r/.workflow_artifacts/memory";
  it.each([
    [
      "writeAtomic of a sentinel",
      (fs: FakeFs) => writeAtomic(fs, `${MEM}/pending-restore-s.txt`, "x"),
    ],
    [
      "createUnique of a checkpoint in a subfolder",
      (fs: FakeFs) => createUnique(fs, `${MEM}/checkpoints`, (n) => `c-${n}.md`, "x"),
    ],
    [
      "a trash move",
      (fs: FakeFs) => trashMove(fs, "/r/loose.txt", MEM, new Date("2026-11-29T00:00:00Z")),
    ],
    [
      "a recent-sessions line",
      (fs: FakeFs) =>
        appendRecentSession(fs, `${MEM}/recent-sessions.md`, new Date("2026-11-29T00:00:00Z"), "s"),
    ],
  ])("is written with its one line `*` when %s creates the folder", (_why, write) => {
    const deps = fakeDeps({ files: { "/r/.git/HEAD": "", "/r/loose.txt": "x" } });
    write(deps.fs);
    expect(readText(deps, `${MEM}/.gitignore`)).toBe("*\n");
  });

  it("is not added to a memory folder that already exists (its owner may commit it), nor to other folders", () => {
    const deps = fakeDeps({ files: { [`${MEM}/recent-sessions.md`]: "" } });
    writeAtomic(deps.fs, `${MEM}/checkpoints/a.md`, "x");
    writeAtomic(deps.fs, "/r/.workflow_artifacts/task/plan.md", "x");
    writeAtomic(deps.fs, "/elsewhere/memory/a.txt", "x");
    expect(deps.fs.existsSync(`${MEM}/.gitignore`)).toBe(false);
    expect(listFiles(deps, "/").filter((f) => f.endsWith(".gitignore"))).toEqual([]);
  });
});
