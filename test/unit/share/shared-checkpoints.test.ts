import { describe, expect, it } from "vitest";
import { ShareGit } from "../../../lib/share/share-git.ts";
import { listSharedCheckpoints } from "../../../lib/share/shared-checkpoints.ts";
import { fakeDeps } from "../../helpers/memfs-deps.ts";

// Reading 3,000 shared checkpoints costs one ls-tree and one cat-file --batch, whatever their
// number; a blob over 64 KB is named in one line and never asked of cat-file.

const REF = "refs/quoin/remotes/origin/checkpoints";
const TIP = "f".repeat(40);
const idOf = (i: number) => i.toString(16).padStart(40, "0");
const text = (i: number) =>
  `## Status\nuser-requested save\n\n## Active task\ntask-${i}\n\n## Session ID\nsid-${i}\n\n## Saved at\n2026-12-01T10:${String(i % 60).padStart(2, "0")}:00Z\n`;

describe("listSharedCheckpoints", () => {
  it("reads 3,000 shared checkpoints with two git processes after the ref, and skips one of 20 MB", () => {
    const n = 3000;
    const big = idOf(n + 1);
    const calls: string[] = [];
    const deps = fakeDeps({
      run: (_cmd, args) => {
        const sub = args.slice(2).join(" ");
        calls.push(args[2] === "cat-file" ? `cat-file ${args[3]}` : (args[2] as string));
        if (sub === "rev-parse --git-dir") return { status: 0, stdout: ".git\n", stderr: "" };
        if (args[2] === "for-each-ref") return { status: 0, stdout: `${REF}\n`, stderr: "" };
        if (args[2] === "rev-parse") return { status: 0, stdout: `${TIP}\n`, stderr: "" };
        if (args[2] === "ls-tree") {
          const rows = Array.from(
            { length: n },
            (_, i) => `100644 blob ${idOf(i)} ${Buffer.byteLength(text(i))}\tt/s${i}/c${i}.md`,
          );
          rows.push(`100644 blob ${big} ${20 * 1024 * 1024}\tevil/x/big.md`);
          return { status: 0, stdout: `${rows.join("\0")}\0`, stderr: "" };
        }
        if (sub === "cat-file --batch") return { status: 0, stdout: "", stderr: "" };
        return { status: 1, stdout: "", stderr: "unexpected" };
      },
    });
    const asked: string[] = [];
    deps.run = ((inner) => (cmd, args, opts) => {
      if (args[2] === "cat-file" && args[3] === "--batch") {
        const ids = (opts?.input ?? "").split("\n").filter(Boolean);
        asked.push(...ids);
        calls.push("cat-file --batch");
        const out = ids.map((id) => {
          const t = text(Number.parseInt(id, 16));
          return `${id} blob ${Buffer.byteLength(t)}\n${t}\n`;
        });
        return { status: 0, stdout: out.join(""), stderr: "" };
      }
      return inner(cmd, args, opts);
    })(deps.run);
    const warned: string[] = [];
    const shared = listSharedCheckpoints(new ShareGit(deps, "/r"), {
      fs: deps.fs,
      checkpoints: "/r/.workflow_artifacts/memory/checkpoints",
      warn: (l) => warned.push(l),
    });
    expect(shared).toHaveLength(n);
    expect(shared[0]!.task).toMatch(/^task-\d+$/);
    expect(calls).toEqual([
      "rev-parse",
      "for-each-ref",
      "rev-parse",
      "ls-tree",
      "cat-file --batch",
    ]);
    expect(asked).not.toContain(big);
    expect(warned).toEqual([
      "[checkpoint] skipped shared checkpoint evil/x/big.md from origin (20.0 MB, over the 64 KB bound): not read, not shared again",
    ]);
  });
});
