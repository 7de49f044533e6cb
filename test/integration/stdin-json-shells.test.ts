import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseCheckpoint } from "../../lib/store/checkpoint-parse.ts";
import { ENGINE, ensureBuilt, tempRepo } from "../helpers/save-repo.ts";

// The skill's SAVE line, `echo -E 'JSON' | E save --json --stdin-json ...` (each ' in the JSON
// written '\''), run by bash and by zsh: standard JSON escapes and double quotes reach the engine
// byte for byte, and the engine's JSON parse gives the values back.

beforeAll(ensureBuilt);

const SID = "f2f2f2f2-0000-4000-8000-00000000000f";
const DOC = {
  task: "quote-check",
  intent: 'make "save" keep quotes, the user\'s words and C:\\tmp\\new',
  inProgress: "line one\nline two\ttabbed \u00e9",
  decisions: ['use "echo -E", not printf'],
};
const JSON_TEXT = JSON.stringify(DOC);
// the one quoting the skill asks for: the JSON in single quotes, each ' as '\''
const quoted = `'${JSON_TEXT.replaceAll("'", "'\\''")}'`;

// bash always; zsh where it is installed (the default login shell on macOS)
const SHELLS = ["bash", "zsh"].filter(
  (sh) => sh === "bash" || spawnSync(sh, ["-c", "exit 0"]).status === 0,
);

describe.each(SHELLS)("%s runs the skill's SAVE line", (shell) => {
  it("the engine's stdin is the JSON byte for byte, backslashes and double quotes included", () => {
    expect(JSON_TEXT).toMatch(/\\"/);
    expect(JSON_TEXT).toMatch(/\\n/);
    const dump = "process.stdin.pipe(process.stdout)";
    const r = spawnSync(shell, ["-c", `echo -E ${quoted} | node -e '${dump}'`], {
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${JSON_TEXT}\n`);
  });

  it("a save through the built engine keeps the values", () => {
    const repo = tempRepo();
    const cmd = `echo -E ${quoted} | node '${ENGINE}' save --json --stdin-json --mode restore --session ${SID}`;
    const r = spawnSync(shell, ["-c", cmd], { cwd: repo.root, env: repo.env, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { ok: boolean; checkpoint: string };
    expect(out.ok).toBe(true);
    const parsed = parseCheckpoint(readFileSync(out.checkpoint, "utf8"));
    expect(path.basename(out.checkpoint)).toContain("quote-check");
    expect(parsed.intent).toBe(DOC.intent);
    expect(parsed.decisions).toContain('use "echo -E", not printf');
    expect(parsed.inProgress).toContain("line one");
    expect(parsed.inProgress).toContain("line two");
  });
});
