import { describe, expect, it } from "vitest";
import { projectMemory } from "../../../lib/store/project-root.ts";
import { projectHash } from "../../../lib/core/project-hash.ts";
import { fakeDeps } from "../../helpers/memfs-deps.ts";

describe("projectMemory: the one project rule", () => {
  const files = {
    "/home/u/mono/.git/HEAD": "ref: refs/heads/main\n",
    "/home/u/mono/.workflow_artifacts/memory/recent-sessions.md": "",
    "/home/u/mono/pkg/a/.workflow_artifacts/x.md": "",
    "/home/u/mono/pkg/a/src/index.ts": "",
    "/home/u/plain/.git": "gitdir: /elsewhere\n",
    "/home/u/plain/src/deep/file.ts": "",
    "/home/u/.workflow_artifacts/stray.md": "",
    "/home/u/loose/notes.txt": "",
    "/srv/repo/.git/HEAD": "",
    "/srv/repo/sub/file": "",
  };
  it.each([
    [
      "the outermost .workflow_artifacts below $HOME wins over a nested one",
      "/home/u/mono/pkg/a/src",
      "/home/u/mono",
    ],
    ["a .git file counts like a folder", "/home/u/plain/src/deep", "/home/u/plain"],
    ["$HOME's own .workflow_artifacts is never used", "/home/u/loose", "/home/u/loose"],
    ["outside $HOME the walk still finds .git", "/srv/repo/sub", "/srv/repo"],
    ["$HOME itself is no project, even with .workflow_artifacts in it", "/home/u", null],
    ["an ancestor of $HOME is no project", "/home", null],
    ["/ is no project", "/", null],
    ["a folder outside $HOME with nothing in it is its own root", "/srv", "/srv"],
  ])("%s", (_why, start, root) => {
    const deps = fakeDeps({ files });
    const got = projectMemory(deps.fs, start, "/home/u");
    expect(got?.root ?? null).toBe(root);
    if (root) expect(got?.memory).toBe(`${root}/.workflow_artifacts/memory`);
  });
});

describe("projectHash", () => {
  it("turns every character outside [A-Za-z0-9-] into -", () => {
    expect(projectHash("/Users/me/ghq/github.com/a_b")).toBe("-Users-me-ghq-github-com-a-b");
    expect(projectHash("/home/u/my proj@2")).toBe("-home-u-my-proj-2");
  });
});
