import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import {
  buildPluginFiles,
  folderDifferences,
  marketplaceText,
  writeFolder,
} from "../../scripts/build-plugin.ts";
import { CLAUDE_BIN } from "../e2e/loopback-model.ts";
import { tempDir } from "../helpers/temp-dirs.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

// A plugin installed from git gets no build step: plugin/ is committed, so it must equal what the
// sources build now. npm test builds dist/ first; this compares the committed copy against it.
// test/unit/plugin-fresh.test.ts checks the same without a build, from the sources' hashes.
describe("the committed plugin folder", () => {
  it("is fresh relative to the sources (else run: npm run build:plugin, and commit plugin/)", () => {
    const expected = buildPluginFiles(ROOT, path.join(ROOT, "dist"));
    expect(folderDifferences(path.join(ROOT, "plugin"), expected)).toEqual([]);
    expect(readFileSync(path.join(ROOT, ".claude-plugin", "marketplace.json"), "utf8")).toBe(
      marketplaceText(ROOT),
    );
  });

  it("the freshness check notices a stale copy", () => {
    const expected = buildPluginFiles(ROOT, path.join(ROOT, "dist"));
    const tmp = tempDir("quoin-plugin-");
    writeFolder(tmp, expected);
    expect(folderDifferences(tmp, expected)).toEqual([]);
    writeFileSync(path.join(tmp, "skills", "cleanup", "SKILL.md"), "old\n");
    writeFileSync(path.join(tmp, "leftover.txt"), "x\n");
    expect(folderDifferences(tmp, expected)).toEqual([
      "leftover.txt (not built any more)",
      "skills/cleanup/SKILL.md",
    ]);
  });

  it.each([["plugin"], ["."]])("passes claude plugin validate %s", (dir) => {
    const res = spawnSync(CLAUDE_BIN, ["plugin", "validate", dir], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" },
      timeout: 60_000,
    });
    expect(res.stdout + res.stderr).toContain("Validation passed");
    expect(res.status).toBe(0);
  });
});
