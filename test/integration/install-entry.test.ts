import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp-dirs.ts";
import { ENGINE_BUNDLE } from "../../lib/install/install-layout.ts";

// install.ts on the real file system (the memfs tests cover the cases; this covers the entry point).
const ROOT = path.resolve(import.meta.dirname, "..", "..");
const TSX = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");

function install(home: string, args: string[], cwd = ROOT) {
  const env: Record<string, string> = { PATH: process.env["PATH"] ?? "", HOME: home };
  const res = spawnSync(
    process.execPath,
    [TSX, path.join(ROOT, "install.ts"), "--no-build", ...args],
    { cwd, env, encoding: "utf8", timeout: 60_000 },
  );
  return { code: res.status, out: res.stdout + res.stderr };
}

function tree(dir: string): Record<string, string> {
  if (!existsSync(dir)) return {};
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) Object.assign(out, tree(full));
    else out[full] = readFileSync(full, "utf8");
  }
  return out;
}

describe("install.ts in a temp home", () => {
  const settings =
    '{\n  "theme": "dark",\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "true" }] }]\n  }\n}\n';

  it("installs, is idempotent, uninstalls to the original bytes, refuses malformed settings", () => {
    const home = tempDir("quoin-home-");
    mkdirSync(path.join(home, ".claude"));
    writeFileSync(path.join(home, ".claude", "settings.json"), settings);

    const dry = install(home, ["--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain("would update");
    expect(readFileSync(path.join(home, ".claude", "settings.json"), "utf8")).toBe(settings);

    const first = install(home, ["--statusline"]);
    expect(first.out).toContain("check it with");
    expect(first.code).toBe(0);
    const after = tree(path.join(home, ".claude"));
    expect(install(home, ["--statusline"]).out).toContain("already installed; nothing to change");
    expect(tree(path.join(home, ".claude"))).toEqual(after);

    const doctor = spawnSync(
      process.execPath,
      [path.join(home, ".claude", "quoin-checkpoint", ENGINE_BUNDLE), "doctor", "--json"],
      {
        env: { PATH: process.env["PATH"] ?? "", HOME: home },
        cwd: home,
        encoding: "utf8",
      },
    );
    const report = JSON.parse(doctor.stdout) as { checks: Array<{ name: string; ok: boolean }> };
    expect(report.checks.find((c) => c.name.endsWith("UserPromptSubmit hook"))?.ok).toBe(true);

    expect(install(home, ["--uninstall"]).code).toBe(0);
    expect(readFileSync(path.join(home, ".claude", "settings.json"), "utf8")).toBe(settings);
    expect(existsSync(path.join(home, ".claude", "skills", "checkpoint"))).toBe(false);

    writeFileSync(path.join(home, ".claude", "settings.json"), '{"a": 1,}\n');
    const refused = install(home, []);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain("line 1, column 9");
    expect(readFileSync(path.join(home, ".claude", "settings.json"), "utf8")).toBe('{"a": 1,}\n');
  });

  it("--scope project writes into the repository's .claude", () => {
    const home = tempDir("quoin-home-");
    const repo = tempDir("quoin-repo-");
    spawnSync("git", ["init", "-q", repo]);
    const r = install(home, ["--scope", "project"], repo);
    expect(r.code).toBe(0);
    const s = JSON.parse(readFileSync(path.join(repo, ".claude", "settings.json"), "utf8"));
    expect(s.hooks.UserPromptSubmit[0].hooks[0].command).toContain(
      "${CLAUDE_PROJECT_DIR}/.claude/quoin-checkpoint/hooks/",
    );
    expect(existsSync(path.join(home, ".claude"))).toBe(false);
  });
});
