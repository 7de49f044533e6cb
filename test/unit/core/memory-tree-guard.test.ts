import { describe, expect, it } from "vitest";
import { writeAtomic } from "../../../lib/core/atomic-write.ts";
import { refuseSymlinkedTree } from "../../../lib/core/memory-tree-guard.ts";
import { fakeDeps } from "../../helpers/memfs-deps.ts";

describe("refuseSymlinkedTree", () => {
  it("refuses a write through a symlinked folder of the memory tree, with the folder named", () => {
    const d = fakeDeps({
      files: { "/elsewhere/.keep": "", "/p/.workflow_artifacts/memory/x.txt": "" },
    });
    d.vol.symlinkSync("/elsewhere", "/p/.workflow_artifacts/memory/checkpoints");
    expect(() => writeAtomic(d.fs, "/p/.workflow_artifacts/memory/checkpoints/a.md", "x")).toThrow(
      "/p/.workflow_artifacts/memory/checkpoints is a symlink; quoin-checkpoint does not write through it",
    );
    expect(d.vol.toJSON("/elsewhere")).toEqual({ "/elsewhere/.keep": "" });
  });

  it("leaves real folders, missing folders and paths outside a .workflow_artifacts tree alone", () => {
    const d = fakeDeps({ files: { "/real/x": "", "/home/u/.keep": "" } });
    d.vol.symlinkSync("/real", "/home/u/.claude");
    expect(() => refuseSymlinkedTree(d.fs, "/home/u/.claude/settings.json")).not.toThrow();
    expect(() => refuseSymlinkedTree(d.fs, "/p/.workflow_artifacts/memory/new/a.md")).not.toThrow();
  });
});
