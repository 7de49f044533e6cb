import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  newestCheckpoint,
  shellCommand,
  shellQuote,
  successorPrompt,
} from "../../../lib/restore/successor.ts";
import { MemoryFixture } from "../../helpers/memory-fixture.ts";

describe("successor", () => {
  it("hands over the most recently modified checkpoint (not the newest name), skipping tiny files", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 1 });
    const touched = f.checkpoint("2026-11-20T1100-beta.md", { task: "beta", ageDays: 0.1 });
    f.checkpoint("2026-11-29T1200-tiny.md", { task: "tiny", raw: "tiny", ageDays: 0 });
    expect(newestCheckpoint(f.listing(""))?.path).toBe(touched);
  });

  it("puts the reconciliation instructions first and the checkpoint inline", () => {
    const p = successorPrompt(
      "/x/cp.md",
      "## Active task\nalpha\n",
      ["Dropped as noise (not in git): 2222222"],
      "/checkpoint",
    );
    expect(p).toMatch(/^Resume the work of an earlier Claude Code session/);
    expect(p).toContain("commit hash is in git log");
    expect(p).toContain("re-derive the true state from git status, git diff");
    expect(p).toContain("count your own prompts and time from now");
    // words the person never saw in this tool's own texts
    expect(p).not.toMatch(
      /rotation budget|save-and-spawn|predecessor|tier|\bB3\b|CASE [A-C]|clause [A-C]/i,
    );
    expect(p).toContain("- Dropped as noise (not in git): 2222222");
    expect(p).toContain("--- /x/cp.md ---\n## Active task\nalpha\n");
    expect(p).toContain("write your own checkpoint\nwith /checkpoint (it gets a new file");
  });

  it("tells a successor of the plugin install to save with /quoin-checkpoint:checkpoint", () => {
    const p = successorPrompt("/x/cp.md", "alpha\n", [], "/quoin-checkpoint:checkpoint");
    expect(p).toContain("with /quoin-checkpoint:checkpoint (it gets a new file");
    expect(p).not.toMatch(/ \/checkpoint\b/);
  });

  const words = ["plain", "two words", "it's", '$HOME `x` "q" \\ !', "line1\nline2", "", "'"];
  for (const w of words) {
    it(`shell-quotes ${JSON.stringify(w)} so that sh reads it back unchanged`, () => {
      const res = spawnSync("sh", ["-c", `printf %s ${shellQuote(w)}`], { encoding: "utf8" });
      expect(res.stdout).toBe(w);
    });
  }

  it("quotes a whole command", () => {
    expect(shellCommand(["claude", "-p", "it's here"])).toBe("claude -p 'it'\\''s here'");
  });
});
