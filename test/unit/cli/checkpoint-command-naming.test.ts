import { describe, expect, it } from "vitest";
import { runCli } from "../../../cli/run-cli.ts";
import { defineCommand } from "../../../cli/command.ts";
import { printLine } from "../../../cli/cli-context.ts";
import { saveCommand } from "../../../cli/commands/save.ts";
import { restoreCommand } from "../../../cli/commands/restore.ts";
import { successorCommand } from "../../../cli/commands/successor.ts";
import { checkpointCommand, installKind } from "../../../lib/core/checkpoint-command.ts";
import type { Deps } from "../../../lib/core/deps.ts";
import { MemoryFixture } from "../../helpers/memory-fixture.ts";
import { memWorld, SID } from "../../helpers/save-deps.ts";

// Claude Code 2.1.332's /rewind has the alias /checkpoint: a plugin user must type the plugin's
// name, so the engine's texts name the command of the install it runs from.

const PLUGIN_DIR = "/home/u/.claude/plugins/cache/quoin-checkpoint/quoin-checkpoint/0.1.0";
const SETTINGS_DIR = "/home/u/.claude/quoin-checkpoint";
const CUR = "cccc0000-0000-0000-0000-000000000001";

function installed(deps: Deps, kind: "plugin" | "settings"): Deps {
  const dir = kind === "plugin" ? PLUGIN_DIR : SETTINGS_DIR;
  deps.fs.mkdirSync(`${dir}/.claude-plugin`, { recursive: true });
  if (kind === "plugin") deps.fs.writeFileSync(`${dir}/.claude-plugin/plugin.json`, "{}");
  return { ...deps, engineScript: `${dir}/quoin-checkpoint.cjs` };
}

function run(deps: Deps, argv: string[], commands = [saveCommand]) {
  let out = "";
  let err = "";
  const code = runCli(
    argv,
    deps,
    { stdout: (t) => (out += t), stderr: (t) => (err += t), readStdin: () => "" },
    commands,
  );
  return { code, out, err };
}

describe("the checkpoint command of the install", () => {
  it("is the plugin's when Claude Code names a plugin root or the engine sits in a plugin folder", () => {
    const w = memWorld();
    expect(installKind({ ...w.deps, env: { CLAUDE_PLUGIN_ROOT: PLUGIN_DIR } })).toBe("plugin");
    expect(installKind(installed(w.deps, "plugin"))).toBe("plugin");
    expect(installKind(installed(w.deps, "settings"))).toBe("settings");
    expect(installKind(w.deps)).toBe("settings");
    expect(checkpointCommand(installed(w.deps, "plugin"))).toBe("/quoin-checkpoint:checkpoint");
    expect(checkpointCommand(installed(w.deps, "settings"))).toBe("/checkpoint");
  });

  it("save's report says /quoin-checkpoint:checkpoint --restore under the plugin, /checkpoint --restore under settings", () => {
    const argv = ["save", "--session", SID, "--json", "--task", "t1"];
    const plugin = JSON.parse(run(installed(memWorld().deps, "plugin"), argv).out);
    expect(plugin.report).toContain(
      "To resume: /quoin-checkpoint:checkpoint --restore in a fresh session",
    );
    const settings = JSON.parse(run(installed(memWorld().deps, "settings"), argv).out);
    expect(settings.report).toContain("To resume: /checkpoint --restore in a fresh session");
  });

  it("restore's same-session advice and the successor's prompt name the plugin's command", () => {
    const f = new MemoryFixture();
    f.sentinel(CUR, f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", sessionId: CUR }));
    const deps = installed(f.deps(), "plugin");
    const j = JSON.parse(run(deps, ["restore", "--json", "--session", CUR], [restoreCommand]).out);
    const text = [...j.show, ...j.next].join("\n");
    expect(text).toContain("run /quoin-checkpoint:checkpoint --restore there");
    expect(text).not.toMatch(/ \/checkpoint\b/);
    f.runResult = () => ({ status: 0, stdout: "", stderr: "" });
    run(deps, ["successor", "--launch", "--json"], [successorCommand]);
    const prompt = f.runs.find((x) => x.cmd === "claude")!.args[1]!;
    expect(prompt).toContain("with /quoin-checkpoint:checkpoint (it gets a new file");
  });

  it("a command that names both commands itself (doctor) is printed as written", () => {
    const said = (namesCommandsItself: boolean) =>
      defineCommand({
        name: "say",
        summary: "s",
        options: {},
        namesCommandsItself,
        run(ctx) {
          printLine(ctx, "with the plugin a bare /checkpoint opens Rewind");
          return 0;
        },
      });
    const deps = installed(memWorld().deps, "plugin");
    expect(run(deps, ["say"], [said(true)]).out).toBe(
      "with the plugin a bare /checkpoint opens Rewind\n",
    );
    expect(run(deps, ["say"], [said(false)]).out).toBe(
      "with the plugin a bare /quoin-checkpoint:checkpoint opens Rewind\n",
    );
  });
});
