import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp-dirs.ts";

// The default install's status line through the real entry point and the built bundle: it records
// the window the client reports and prints only the person's own line (nothing without one);
// --no-statusline leaves settings.json without one; uninstall restores the bytes.
const ROOT = path.resolve(import.meta.dirname, "..", "..");
const TSX = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
const SID = "11111111-2222-3333-4444-555555555555";
const DRAW = JSON.stringify({
  session_id: SID,
  model: { id: "claude-sonnet-4-5[1m]", display_name: "Sonnet 4.5" },
  context_window: { context_window_size: 1_000_000, current_usage: { input_tokens: 200_000 } },
});

function install(home: string, args: string[]) {
  const env = { PATH: process.env["PATH"] ?? "", HOME: home };
  const r = spawnSync(
    process.execPath,
    [TSX, path.join(ROOT, "install.ts"), "--no-build", ...args],
    {
      cwd: ROOT,
      env,
      encoding: "utf8",
      timeout: 60_000,
    },
  );
  return { code: r.status, out: r.stdout + r.stderr };
}

function draw(home: string, command: string) {
  const r = spawnSync("sh", ["-c", command], {
    input: DRAW,
    env: { PATH: process.env["PATH"] ?? "", HOME: home },
    encoding: "utf8",
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("the default status-line recorder", () => {
  it("no status line of the person's: a draw prints nothing and records 1M; uninstall restores the bytes", () => {
    const home = tempDir("quoin-home-");
    mkdirSync(path.join(home, ".claude"));
    const file = path.join(home, ".claude", "settings.json");
    const original = '{\n  "theme": "dark"\n}\n';
    writeFileSync(file, original);
    expect(install(home, []).code).toBe(0);
    const command = JSON.parse(readFileSync(file, "utf8")).statusLine.command as string;
    expect(command).toMatch(/statusline\.cjs" --quiet$/);
    expect(draw(home, command)).toEqual({ code: 0, stdout: "", stderr: "" });
    const record = path.join(home, ".claude", "quoin-checkpoint", "state", `window-${SID}.json`);
    expect(JSON.parse(readFileSync(record, "utf8")).context_window_size).toBe(1_000_000);
    expect(install(home, ["--uninstall"]).code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(original);
  }, 120_000);

  it("the person's status line: a draw prints exactly what theirs prints", () => {
    const home = tempDir("quoin-home-");
    mkdirSync(path.join(home, ".claude"));
    const file = path.join(home, ".claude", "settings.json");
    const original = `{"statusLine": {"type": "command", "command": "printf 'main  ~/proj'"}}\n`;
    writeFileSync(file, original);
    expect(install(home, []).code).toBe(0);
    const command = JSON.parse(readFileSync(file, "utf8")).statusLine.command as string;
    expect(draw(home, command)).toEqual({ code: 0, stdout: "main  ~/proj\n", stderr: "" });
    expect(install(home, ["--uninstall"]).code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(original);
  }, 120_000);

  it("--no-statusline: none", () => {
    const home = tempDir("quoin-home-");
    expect(install(home, ["--no-statusline"]).code).toBe(0);
    const settings = JSON.parse(readFileSync(path.join(home, ".claude", "settings.json"), "utf8"));
    expect(settings.statusLine).toBeUndefined();
    expect(existsSync(path.join(home, ".claude", "quoin-checkpoint", "statusline.cjs"))).toBe(true);
  }, 120_000);
});
