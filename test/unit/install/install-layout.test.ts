import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { engineInvocation } from "../../../lib/core/shell-quote.ts";
import { nodeDeps } from "../../../lib/edge/node-deps.ts";
import {
  commandTarget,
  ENGINE_BUNDLE,
  engineCommand,
  hookCommand,
  statusLineBundleCommand,
} from "../../../lib/install/install-layout.ts";
import { ENGINE_COMMAND } from "../../../lib/skills/skill-render.ts";
import { mergeInstall, mergeUninstall } from "../../../lib/install/settings-merge.ts";

// Claude Code runs a shell-form hook command through `sh -c`: run ours the same way, with `node`
// swapped for printf, and see which path the shell hands over.
function argvOf(command: string, env: Record<string, string> = {}): string {
  const asPrintf = command.replace(/^node /, "printf '%s' ");
  return execFileSync("/bin/sh", ["-c", asPrintf], {
    encoding: "utf8",
    env: { PATH: process.env["PATH"] ?? "", ...env },
  });
}

const ODD_HOMES = [
  "/home/plain/.claude/quoin-checkpoint",
  "/home/with space/.claude/quoin-checkpoint",
  `/home/o'brien/.claude/quoin-checkpoint`,
  `/home/say "hi"/.claude/quoin-checkpoint`,
  "/home/cost$HOME/.claude/quoin-checkpoint",
  "/home/tick`id`/.claude/quoin-checkpoint",
  "/home/back\\slash/.claude/quoin-checkpoint",
];

describe("hook and engine commands under sh -c", () => {
  it.each(ODD_HOMES)("hand the shell the bundle path unchanged: %s", (dir) => {
    expect(argvOf(hookCommand(dir, "sessionstart"))).toBe(`${dir}/hooks/sessionstart.cjs`);
    expect(argvOf(`${engineCommand(dir)} statusline`)).toBe(`${dir}/${ENGINE_BUNDLE}statusline`);
    expect(argvOf(statusLineBundleCommand(dir))).toBe(`${dir}/statusline.cjs`);
    expect(commandTarget(hookCommand(dir, "sessionstart"))).toBe(`${dir}/hooks/sessionstart.cjs`);
  });

  it("keep ${CLAUDE_PLUGIN_ROOT} in double quotes too (the plugin's hooks.json)", () => {
    expect(hookCommand("${CLAUDE_PLUGIN_ROOT}", "sessionstart")).toBe(
      'node "${CLAUDE_PLUGIN_ROOT}/hooks/sessionstart.cjs"',
    );
  });

  it("keep ${CLAUDE_PROJECT_DIR} in double quotes so it still expands", () => {
    const cmd = hookCommand("${CLAUDE_PROJECT_DIR}/.claude/quoin-checkpoint", "precompact");
    expect(cmd).toBe('node "${CLAUDE_PROJECT_DIR}/.claude/quoin-checkpoint/hooks/precompact.cjs"');
    expect(argvOf(cmd, { CLAUDE_PROJECT_DIR: "/r/my repo" })).toBe(
      "/r/my repo/.claude/quoin-checkpoint/hooks/precompact.cjs",
    );
  });

  it.each(ODD_HOMES)(
    "status line with a single-quoted engine path installs and uninstalls: %s",
    (dir) => {
      const installed = mergeInstall(`{"statusLine": {"type": "command", "command": "mine"}}\n`, {
        hooks: [],
        statusLine: statusLineBundleCommand(dir),
      });
      if (!installed.ok) throw new Error(installed.reason);
      const again = mergeInstall(installed.text, {
        hooks: [],
        statusLine: statusLineBundleCommand(dir),
      });
      expect(again).toMatchObject({ ok: true, changed: false });
      expect(mergeUninstall(installed.text)).toMatchObject({
        ok: true,
        text: `{"statusLine": {"type": "command", "command": "mine"}}\n`,
      });
    },
  );
});

describe("the plugin's hooks.json", () => {
  it("registers the SessionEnd hook for every reason (no matcher) and with no timeout", async () => {
    const { pluginFiles } = await import("../../../lib/install/plugin-files.ts");
    const files = pluginFiles({
      version: "0",
      description: "d",
      license: "MIT",
      engine: "",
      anyAscii: "",
      statusLine: "",
      hookBundles: { sessionend: "// se", precompact: "// pc" },
      skills: {},
    });
    const hooks = JSON.parse(files["hooks/hooks.json"]!).hooks;
    expect(hooks.SessionEnd).toEqual([
      {
        hooks: [{ type: "command", command: 'node "${CLAUDE_PLUGIN_ROOT}/hooks/sessionend.cjs"' }],
      },
    ]);
    expect(hooks.PreCompact[0].hooks[0].timeout).toBe(30);
    expect(files["hooks/sessionend.cjs"]).toBe("// se");
  });
});

// Every place names the engine through lib/core/engine-name.ts's ENGINE_BUNDLE.
describe("every place that names the engine", () => {
  it("a message's fallback command (shell-quote.ts)", () => {
    expect(engineInvocation({})).toBe(`node "${ENGINE_BUNDLE}"`);
  });

  it("a hook's engine, beside its hooks/ folder (node-deps.ts)", () => {
    const argv1 = process.argv[1];
    try {
      process.argv[1] = "/x/quoin-checkpoint/hooks/userpromptsubmit.cjs";
      expect(nodeDeps().engineScript).toBe(`/x/quoin-checkpoint/${ENGINE_BUNDLE}`);
    } finally {
      process.argv[1] = argv1 as string;
    }
  });

  it("the prompt hook's forced save (hooks/userpromptsubmit.ts)", () => {
    const source = readFileSync(
      path.resolve(import.meta.dirname, "../../../hooks/userpromptsubmit.ts"),
      "utf8",
    );
    expect(source).toContain(`path.join(import.meta.dirname, "..", ENGINE_BUNDLE)`);
  });

  it("the skills' engine commands (skill-render.ts)", () => {
    expect(ENGINE_COMMAND.settings).toBe(
      `node '\${CLAUDE_SKILL_DIR}/../../quoin-checkpoint/${ENGINE_BUNDLE}'`,
    );
    expect(ENGINE_COMMAND.plugin).toBe(`node "\${CLAUDE_PLUGIN_ROOT}/${ENGINE_BUNDLE}"`);
  });
});
