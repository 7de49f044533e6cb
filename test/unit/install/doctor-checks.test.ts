import { describe, expect, it } from "vitest";
import { formatDoctor, runDoctorChecks } from "../../../lib/install/doctor-checks.ts";
import type { RunResult } from "../../../lib/core/deps.ts";
import { DIST, installWorld } from "../../helpers/install-world.ts";
import { memDeps } from "../../helpers/mem-install-deps.ts";
import { readKnobs } from "../../../lib/core/knobs.ts";
import { transcriptWithTokens } from "../../helpers/transcripts.ts";
import { MAKE_WINDOW_KNOWN } from "../../../lib/context/context-window.ts";

/** The installer's world, built without the PreCompact bundle, each hook run taking `runMs`. */
function depsWithClock(runMs: number) {
  let t = 0;
  const ran: string[][] = [];
  const world = installWorld(
    {},
    {
      now: () => new Date(t),
      run: (cmd, args): RunResult => {
        ran.push([cmd, ...args]);
        t += runMs;
        return { status: 0, stdout: "", stderr: "" };
      },
    },
  );
  world.vol.unlinkSync(`${DIST}/hooks/precompact.cjs`);
  return { ...world, ran };
}

describe("doctor", () => {
  it("says how to install when nothing is installed", () => {
    const { deps } = depsWithClock(50);
    const checks = runDoctorChecks(deps, { nodeVersion: "v20.20.2" });
    expect(checks.find((c) => c.name === "installed files")).toMatchObject({
      ok: false,
      fix: expect.stringContaining("npm run setup"),
    });
  });

  it("passes an install, times each hook, and names the missing PreCompact bundle with its fix", () => {
    const { deps, ran, install } = depsWithClock(50);
    expect(install().ok).toBe(true);
    const checks = runDoctorChecks(deps, { nodeVersion: "v20.20.2" });
    const text = formatDoctor(checks);
    expect(text).toContain(
      "ok    user install (/home/u/.claude): UserPromptSubmit hook: starts in 50 ms",
    );
    expect(text).toContain(
      "FAIL  user install (/home/u/.claude): PreCompact hook: no quoin entry under hooks.PreCompact",
    );
    expect(text).toContain("fix: build the precompact bundle");
    expect(text).toContain("1 problem(s) found");
    expect(ran).toContainEqual([
      "node",
      "/home/u/.claude/quoin-checkpoint/hooks/userpromptsubmit.cjs",
    ]);
    expect(text).toContain(
      "ok    user install (/home/u/.claude): SessionEnd hook: starts in 50 ms",
    );
  });

  it("flags an old node and a slow hook", () => {
    const { deps, install } = depsWithClock(1500);
    install();
    const checks = runDoctorChecks(deps, { nodeVersion: "v18.1.0" });
    expect(checks[0]).toMatchObject({ ok: false, fix: "install Node.js 20 or newer" });
    expect(checks.find((c) => c.name.endsWith("SessionStart hook"))).toMatchObject({
      ok: false,
      detail: "starts in 1500 ms (over 1000 ms)",
    });
  });

  it("reports a malformed settings.json without touching it", () => {
    const { deps, vol, install } = depsWithClock(10);
    install();
    vol.writeFileSync("/home/u/.claude/settings.json", "{ nope");
    const checks = runDoctorChecks(deps, { nodeVersion: "v20.0.0" });
    expect(checks.find((c) => c.name.endsWith("settings.json"))).toMatchObject({
      ok: false,
      detail: expect.stringContaining("line 1, column 3"),
    });
    expect(vol.readFileSync("/home/u/.claude/settings.json", "utf8")).toBe("{ nope");
  });

  it("flags a /checkpoint skill that is not quoin's", () => {
    const { deps, vol, install } = depsWithClock(10);
    install();
    vol.writeFileSync(
      "/home/u/.claude/skills/checkpoint/SKILL.md",
      "---\nname: checkpoint\n---\nmy own\n",
    );
    const checks = runDoctorChecks(deps, { nodeVersion: "v20.0.0" });
    expect(checks.find((c) => c.name.endsWith("/checkpoint skill"))).toMatchObject({
      ok: false,
      detail: expect.stringContaining("is not quoin's"),
    });
    expect(checks.find((c) => c.name.endsWith("/cleanup skill"))).toMatchObject({ ok: true });
  });

  it("a plugin-only home passes, though the skills keep their dispatch cache in ~/.claude/quoin-checkpoint", () => {
    const { deps, vol } = depsWithClock(10);
    vol.mkdirSync("/home/u/.claude/quoin-checkpoint", { recursive: true });
    vol.writeFileSync("/home/u/.claude/quoin-checkpoint/dispatch-cache.json", "{}\n");
    vol.writeFileSync(
      "/home/u/.claude/settings.json",
      JSON.stringify({ enabledPlugins: { "quoin-checkpoint@quoin-checkpoint": true } }),
    );
    const checks = runDoctorChecks(deps, { nodeVersion: "v20.0.0" });
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(checks.find((c) => c.name === "installed files")?.detail).toContain(
      "quoin-checkpoint@quoin-checkpoint",
    );
    // 2.1.332's /rewind has the alias /checkpoint: the plugin's command is the qualified name.
    expect(checks.find((c) => c.name === "command (plugin)")).toMatchObject({
      ok: true,
      warn: true,
      detail: expect.stringContaining(
        "type /quoin-checkpoint:checkpoint: with the plugin a bare /checkpoint opens Rewind",
      ),
    });
    expect(formatDoctor(checks)).toContain(
      "WARN  command (plugin): type /quoin-checkpoint:checkpoint",
    );
    expect(checks.find((c) => c.name === "command")).toBeUndefined();
  });

  it("fails an install whose SessionStart matcher lacks fork (an install before 2.1.214's fork source); a reinstall fixes it", () => {
    const { deps, vol, install } = depsWithClock(10);
    install();
    const name = "user install (/home/u/.claude): SessionStart matcher";
    expect(
      runDoctorChecks(deps, { nodeVersion: "v20.0.0" }).find((c) => c.name === name),
    ).toBeUndefined();
    const file = "/home/u/.claude/settings.json";
    vol.writeFileSync(
      file,
      (vol.readFileSync(file, "utf8") as string).replace(
        "startup|resume|clear|compact|fork",
        "startup|resume|clear|compact",
      ),
    );
    expect(
      runDoctorChecks(deps, { nodeVersion: "v20.0.0" }).find((c) => c.name === name),
    ).toMatchObject({
      ok: false,
      detail:
        'is "startup|resume|clear|compact"; this version installs "startup|resume|clear|compact|fork" (without fork a forked session gets no banner)',
    });
    install();
    expect(
      runDoctorChecks(deps, { nodeVersion: "v20.0.0" }).find((c) => c.name === name),
    ).toBeUndefined();
  });

  it("a settings install names /checkpoint, which wins over the /rewind alias by exact name; no plugin warning", () => {
    const { deps, install } = depsWithClock(10);
    install();
    const checks = runDoctorChecks(deps, { nodeVersion: "v20.0.0" });
    expect(checks.find((c) => c.name === "command")?.detail).toMatch(
      /^\/checkpoint: the settings install's user-level skill wins/,
    );
    expect(checks.find((c) => c.name === "command (plugin)")).toBeUndefined();
  });

  it("warns, without failing, when any-ascii.cjs is not beside the engine: transliteration falls back to '?'", () => {
    const { deps, vol, install } = depsWithClock(10);
    install();
    const name = "user install (/home/u/.claude): transliteration tables";
    expect(runDoctorChecks(deps, { nodeVersion: "v20.0.0" }).find((c) => c.name === name)).toEqual({
      name,
      ok: true,
      detail: "/home/u/.claude/quoin-checkpoint/any-ascii.cjs",
    });
    vol.unlinkSync("/home/u/.claude/quoin-checkpoint/any-ascii.cjs");
    const checks = runDoctorChecks(deps, { nodeVersion: "v20.0.0" });
    expect(checks.find((c) => c.name === name)).toMatchObject({
      ok: true,
      warn: true,
      detail: expect.stringContaining("transliteration falls back to '?'"),
      fix: expect.stringContaining("reinstall"),
    });
    expect(formatDoctor(checks)).toContain(
      `WARN  ${name}: /home/u/.claude/quoin-checkpoint/any-ascii.cjs is missing`,
    );
    expect(formatDoctor(checks)).not.toContain("FAIL  user install (/home/u/.claude): engine");
  });

  it("flags a settings install next to the enabled plugin", () => {
    const { deps, vol, install } = depsWithClock(10);
    install();
    const settings = JSON.parse(
      vol.readFileSync("/home/u/.claude/settings.json", "utf8") as string,
    );
    vol.writeFileSync(
      "/home/u/.claude/settings.json",
      JSON.stringify({
        ...settings,
        enabledPlugins: { "quoin-checkpoint@quoin-checkpoint": true },
      }),
    );
    const checks = runDoctorChecks(deps, { nodeVersion: "v20.0.0" });
    expect(checks.find((c) => c.name === "one install only")).toMatchObject({
      ok: false,
      detail: expect.stringContaining("every hook runs twice"),
    });
  });
});

describe("doctor: the window of recent sessions", () => {
  const A = "aaaaaaaa-1111-4a2b-9c3d-000000000001";
  const B = "bbbbbbbb-2222-4a2b-9c3d-000000000002";
  const C = "cccccccc-3333-4a2b-9c3d-000000000003";
  const projects = "/home/u/.claude/projects/-home-u-proj";
  const files = {
    "/home/u/proj/.git/HEAD": "ref: refs/heads/main\n",
    "/home/u/proj/.workflow_artifacts/memory/recent-sessions.md": `2026-11-29T10:00:00Z | ${A}\n2026-11-29T11:00:00Z | ${B}\n2026-11-29T11:30:00Z | ${C}\n2026-11-29T12:00:00Z | ${A}\n`,
    [`${projects}/${A}.jsonl`]: transcriptWithTokens(50_000, "claude-sonnet-4-5-20250929"),
    [`${projects}/${B}.jsonl`]: transcriptWithTokens(50_000, "claude-sonnet-4-5-20250929"),
    [`/home/u/.claude/quoin-checkpoint/state/window-${B}.json`]:
      '{"context_window_size":1000000}\n',
  };

  it("an install without a status line names its own installer as the way to turn the recorder on", () => {
    const { deps, install } = installWorld(files);
    install({ invocation: { via: "npx", command: "npx quoin-checkpoint@0.1.0" } });
    const check = runDoctorChecks(deps, {
      nodeVersion: "v20.20.2",
      knobs: readKnobs({}, () => {}),
    }).find((c) => c.name.startsWith(`window of session ${A.slice(0, 8)}`));
    expect(check?.fix).toBe(
      "this install has no status line to record the window (installed with --no-statusline, or before the recorder was the default): turn the recorder on with npx quoin-checkpoint@0.1.0 install, or set QUOIN_CONTEXT_WINDOW",
    );
  });

  it("names each session's window source, newest first, and warns on the default guess without failing", () => {
    const { deps } = memDeps(files);
    const checks = runDoctorChecks(deps, {
      nodeVersion: "v20.20.2",
      knobs: readKnobs({}, () => {}),
    }).filter((c) => c.name.startsWith("window of"));
    expect(checks).toEqual([
      {
        name: "window of session aaaaaaaa (last prompt 2026-11-29T12:00:00Z)",
        ok: true,
        warn: true,
        detail:
          "200k from default (assumed; claude-sonnet-4-5-20250929 offers 200k or 1M); 100% = 167k: a guess, so a prompt past the limit is only warned about, never held back",
        fix: MAKE_WINDOW_KNOWN,
      },
      {
        name: "window of session cccccccc (last prompt 2026-11-29T11:30:00Z)",
        ok: true,
        detail: "transcript not found (started in another folder, or removed)",
      },
      {
        name: "window of session bbbbbbbb (last prompt 2026-11-29T11:00:00Z)",
        ok: true,
        detail: "1M from statusline (the status line); 100% = 967k",
      },
    ]);
    const text = formatDoctor(checks);
    expect(text).toContain("WARN  window of session aaaaaaaa");
    expect(text).toContain("all checks passed");
  });

  it("says nothing about windows outside a project", () => {
    const { deps } = memDeps(files, { cwd: "/home/u" });
    expect(
      runDoctorChecks(deps, { nodeVersion: "v20.20.2", knobs: readKnobs({}, () => {}) }).filter(
        (c) => c.name.startsWith("window of"),
      ),
    ).toEqual([]);
  });
});
