import { beforeEach, describe, expect, it } from "vitest";
import { writeAtomic } from "../../../lib/core/atomic-write.ts";
import type { FsApi } from "../../../lib/core/deps.ts";
import { readTextOrNull } from "../../../lib/core/file-range.ts";
import { ensureDir } from "../../../lib/core/memory-dir.ts";
import {
  appendByRule,
  openForRead,
  RefusedFileError,
  resetRefusals,
  takeRefusals,
} from "../../../lib/core/safe-file.ts";
import { fakeDeps, listFiles, readText } from "../../helpers/memfs-deps.ts";

const MEM = "/p/.workflow_artifacts/memory";
const enospc = () =>
  Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });

/** An fs whose writeSync fails with ENOSPC while `full()` says so (a full disk, through Deps). */
function fullDisk(fs: FsApi, full: () => boolean): FsApi {
  return new Proxy(fs, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key === "writeSync")
        return (...a: unknown[]) => {
          if (full()) throw enospc();
          return (value as (...x: unknown[]) => number).apply(target, a);
        };
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

beforeEach(() => resetRefusals());

describe("the safe-file rule", () => {
  it("never appends through a symlink in the memory tree; names it once", () => {
    const d = fakeDeps({ files: { "/home/u/.bashrc": "alias x=y\n", [`${MEM}/x`]: "" } });
    d.vol.symlinkSync("/home/u/.bashrc", `${MEM}/recent-sessions.md`);
    for (let i = 0; i < 2; i += 1)
      expect(() => appendByRule(d.fs, `${MEM}/recent-sessions.md`, "line\n")).toThrow(
        RefusedFileError,
      );
    expect(readText(d, "/home/u/.bashrc")).toBe("alias x=y\n");
    expect(takeRefusals()).toEqual([
      `${MEM}/recent-sessions.md is a symlink; quoin-checkpoint does not follow it`,
    ]);
    expect(takeRefusals()).toEqual([]);
  });

  it("never reads through a symlink in the tool's trees, but follows one outside them", () => {
    const d = fakeDeps({
      files: {
        "/home/u/.aws/credentials": "secret",
        [`${MEM}/x`]: "",
        "/dots/settings.json": "{}",
      },
    });
    d.vol.symlinkSync("/home/u/.aws/credentials", `${MEM}/checkpoints.md`);
    d.vol.mkdirSync("/home/u/.claude", { recursive: true });
    d.vol.symlinkSync("/dots/settings.json", "/home/u/.claude/settings.json");
    expect(readTextOrNull(d.fs, `${MEM}/checkpoints.md`)).toBeNull();
    expect(readTextOrNull(d.fs, "/home/u/.claude/settings.json")).toBe("{}");
  });

  it("walks the config folder's quoin-checkpoint/ too: a symlinked state/ is refused", () => {
    const d = fakeDeps({
      files: { "/elsewhere/window-s.json": "{}", "/home/u/.claude/quoin-checkpoint/x": "" },
    });
    d.vol.symlinkSync("/elsewhere", "/home/u/.claude/quoin-checkpoint/state");
    expect(openForRead(d.fs, "/home/u/.claude/quoin-checkpoint/state/window-s.json")).toBeNull();
    expect(takeRefusals()).toEqual([
      "/home/u/.claude/quoin-checkpoint/state is a symlink; quoin-checkpoint does not write through it (replace it with a folder)",
    ]);
  });

  it("a folder where a file is expected is no file", () => {
    const d = fakeDeps({ files: { [`${MEM}/recent-sessions.md/x`]: "" } });
    expect(readTextOrNull(d.fs, `${MEM}/recent-sessions.md`)).toBeNull();
    expect(() => appendByRule(d.fs, `${MEM}/recent-sessions.md`, "x")).toThrow();
  });

  it("a write interrupted by a full disk leaves no .tmp file behind", () => {
    const d = fakeDeps({ files: { [`${MEM}/checkpoints/a.md`]: "old" } });
    const fs = fullDisk(d.fs, () => true);
    expect(() => writeAtomic(fs, `${MEM}/checkpoints/a.md`, "new".repeat(1000))).toThrow("ENOSPC");
    expect(listFiles(d, MEM)).toEqual([`${MEM}/checkpoints/a.md`]);
    expect(readText(d, `${MEM}/checkpoints/a.md`)).toBe("old");
  });
});

describe("the memory folder comes into being whole", () => {
  it("is made with its .gitignore inside", () => {
    const d = fakeDeps({ files: { "/p/.git/HEAD": "" } });
    ensureDir(d.fs, `${MEM}/checkpoints`);
    expect(readText(d, `${MEM}/.gitignore`)).toBe("*\n");
    expect(d.fs.readdirSync("/p/.workflow_artifacts")).toEqual(["memory"]);
  });

  it("a full disk at the first write leaves no memory folder and no empty .gitignore; the next write after space returns makes it whole", () => {
    const d = fakeDeps({ files: { "/p/.git/HEAD": "" } });
    let full = true;
    const fs = fullDisk(d.fs, () => full);
    expect(() => ensureDir(fs, `${MEM}/checkpoints`)).toThrow(
      `cannot create ${MEM}: the disk is full (ENOSPC)`,
    );
    expect(listFiles(d, "/p/.workflow_artifacts")).toEqual([]);
    expect(d.fs.readdirSync("/p/.workflow_artifacts")).toEqual([]);
    full = false;
    ensureDir(fs, `${MEM}/checkpoints`);
    expect(readText(d, `${MEM}/.gitignore`)).toBe("*\n");
  });

  it("an empty .gitignore (left by an older version on a full disk) is repaired; a removed one stays removed", () => {
    const d = fakeDeps({
      files: { [`${MEM}/.gitignore`]: "", "/q/.workflow_artifacts/memory/x": "" },
    });
    ensureDir(d.fs, `${MEM}/checkpoints`);
    expect(readText(d, `${MEM}/.gitignore`)).toBe("*\n");
    ensureDir(d.fs, "/q/.workflow_artifacts/memory/checkpoints");
    expect(d.fs.existsSync("/q/.workflow_artifacts/memory/.gitignore")).toBe(false);
  });

  it("a folder the user cannot create says why in words", () => {
    const d = fakeDeps({ files: { "/p/.git/HEAD": "" } });
    const fs = new Proxy(d.fs, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key === "mkdirSync")
          return () => {
            throw Object.assign(new Error("EROFS: read-only file system, mkdir"), {
              code: "EROFS",
            });
          };
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    expect(() => ensureDir(fs, `${MEM}/checkpoints`)).toThrow(
      "cannot create /p/.workflow_artifacts: the file system is read-only (EROFS)",
    );
  });
});
