import { describe, expect, it } from "vitest";
import { MAKE_WINDOW_KNOWN } from "../../../lib/context/context-window.ts";
import { runInstall, type InstallOptions } from "../../../lib/install/installer.ts";
import { makeWindowKnown } from "../../../lib/install/window-advice.ts";
import { installWorld } from "../../helpers/install-world.ts";

// The way to make a guessed window known, as it is true for the install that runs: its recorder
// waits for a status-line draw, or it has none and its own installer turns it on.

const ENGINE = "/home/u/.claude/quoin-checkpoint/quoin-checkpoint.cjs";
const NPX = { via: "npx", command: "npx quoin-checkpoint@0.1.0" } as const;

function installed(o: Partial<InstallOptions>, settings?: string) {
  const w = installWorld(
    settings === undefined ? {} : { "/home/u/.claude/settings.json": settings },
  );
  const out = runInstall(w.deps, w.opts({ invocation: NPX, ...o }));
  if (!out.ok) throw new Error(out.reason);
  return { ...w.deps, engineScript: ENGINE };
}

describe("how to make the window known, for this install", () => {
  it("the recorder is in (the default): it waits for the interactive client to draw a status line", () => {
    expect(makeWindowKnown(installed({ recorder: true }))).toBe(
      "this install's status-line recorder records the window once the interactive client draws its status line (it has not yet in this session; claude -p never draws one), or set QUOIN_CONTEXT_WINDOW",
    );
  });

  it("the gauge (--statusline) is in: the same wait, named as the status line", () => {
    expect(makeWindowKnown(installed({ statusLine: true }))).toContain(
      "this install's status line records the window once",
    );
  });

  it("--no-statusline: the installer that made this install, as it runs, turns the recorder on", () => {
    expect(makeWindowKnown(installed({ recorder: false }, '{"model":"opus"}\n'))).toBe(
      "this install has no status line to record the window (installed with --no-statusline, or before the recorder was the default): turn the recorder on with npx quoin-checkpoint@0.1.0 install, or set QUOIN_CONTEXT_WINDOW",
    );
  });

  it("a project install's command names its scope and folder", () => {
    const deps = installed({ recorder: false, scope: "project" });
    const engine = "/home/u/proj/.claude/quoin-checkpoint/quoin-checkpoint.cjs";
    expect(makeWindowKnown({ ...deps, engineScript: engine })).toContain(
      "turn the recorder on with npx quoin-checkpoint@0.1.0 install --scope project --project /home/u/proj,",
    );
  });

  it("a build run from a clone, or no engine: the general advice; the plugin: only the variable", () => {
    const deps = installed({ recorder: false });
    expect(makeWindowKnown({ ...deps, engineScript: "/src/q/dist/quoin-checkpoint.cjs" })).toBe(
      MAKE_WINDOW_KNOWN,
    );
    const { engineScript: _none, ...noEngine } = deps;
    expect(makeWindowKnown(noEngine)).toBe(MAKE_WINDOW_KNOWN);
    expect(makeWindowKnown({ ...deps, env: { CLAUDE_PLUGIN_ROOT: "/p" } })).toBe(
      "set QUOIN_CONTEXT_WINDOW where Claude Code starts (a plugin cannot register the status line that records the window)",
    );
    expect(MAKE_WINDOW_KNOWN).not.toMatch(/setup --statusline/);
  });
});
