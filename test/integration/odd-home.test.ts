import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, REPO_ROOT } from "../helpers/save-repo.ts";
import { tempDir } from "../helpers/temp-dirs.ts";
import { transcriptWithTokens } from "../helpers/transcripts.ts";
import { writeFileSync } from "node:fs";

// Every command quoin prints or installs runs as written (a person pastes it, settings.json hands
// it to sh), even from a home folder whose path holds `"`, `$` and a backtick (each of which breaks
// a double-quoted word).

beforeAll(ensureBuilt);

const TSX = path.join(REPO_ROOT, "node_modules", "tsx", "dist", "cli.mjs");
const SID = "c3c3c3c3-0000-4000-8000-00000000000c";

describe('a home folder named with ", $ and a backtick', () => {
  it("the installed hooks, the skills' engine command and a printed command all run through sh", () => {
    const base = tempDir("quoin-odd-");
    const home = path.join(base, 'h"o$me`x');
    const repo = path.join(base, "repo");
    mkdirSync(path.join(repo, ".git"), { recursive: true });
    writeFileSync(path.join(repo, ".git", "HEAD"), "ref: refs/heads/main\n");
    mkdirSync(home, { recursive: true });
    const env = {
      PATH: process.env["PATH"] ?? "",
      HOME: home,
      TZ: "UTC",
      QUOIN_ROTATE_OBSERVATIONS: "1",
    };
    const sh = (command: string, input = "") =>
      spawnSync("sh", ["-c", command], {
        cwd: repo,
        env,
        input,
        encoding: "utf8",
        timeout: 60_000,
      });

    const installed = spawnSync(
      process.execPath,
      [TSX, path.join(REPO_ROOT, "install.ts"), "--no-build"],
      { cwd: REPO_ROOT, env, encoding: "utf8", timeout: 60_000 },
    );
    expect(installed.status, installed.stdout + installed.stderr).toBe(0);
    const config = path.join(home, ".claude");

    // The skill as Claude Code shows it: ${CLAUDE_SKILL_DIR} replaced by the folder's path, as text.
    const skillDir = path.join(config, "skills", "checkpoint");
    const skill = readFileSync(path.join(skillDir, "SKILL.md"), "utf8").replaceAll(
      "${CLAUDE_SKILL_DIR}",
      skillDir,
    );
    const engine = /"Bash\((.+) dispatch \*\)"/.exec(skill)?.[1];
    expect(engine).toBeDefined();
    const listed = sh(`${engine} list`);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toContain("no checkpoints");

    // The prompt hook as settings.json runs it; its rotation note names a command: run that too.
    const settings = JSON.parse(readFileSync(path.join(config, "settings.json"), "utf8")) as {
      hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>;
    };
    const transcript = path.join(base, "t.jsonl");
    writeFileSync(transcript, transcriptWithTokens(20_000));
    const hook = sh(
      settings.hooks["UserPromptSubmit"]![0]!.hooks[0]!.command,
      JSON.stringify({
        session_id: SID,
        transcript_path: transcript,
        cwd: repo,
        hook_event_name: "UserPromptSubmit",
        prompt: "go",
        permission_mode: "default",
      }),
    );
    expect(hook.status).toBe(0);
    const note = (JSON.parse(hook.stdout) as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
    const printed = /\(run: (.+ successor)\)/.exec(note)?.[1];
    expect(printed, note).toBeDefined();
    // The engine ran (no checkpoint yet: its own answer, exit 1), not sh failing to find it.
    const successor = sh(printed!);
    expect(successor.stdout, successor.stderr).toContain("no checkpoint to resume from");
  });
});
