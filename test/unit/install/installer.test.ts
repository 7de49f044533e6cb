import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { runInstall } from "../../../lib/install/installer.ts";
import { memDeps, snapshot } from "../../helpers/mem-install-deps.ts";
import {
  BUILT,
  DIST,
  GIT_HEAD,
  installOptions as opts,
  must,
} from "../../helpers/install-world.ts";
import { codeCachePrefix } from "../../../lib/core/code-cache-name.ts";

const THEIRS = `{
  "model": "opus",
  "hooks": {
    "UserPromptSubmit": [{ "hooks": [{ "type": "command", "command": "~/bin/log-prompt" }] }],
    "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }]
  },
  "statusLine": { "type": "command", "command": "~/bin/my-status" },
  "enabledPlugins": {}
}
`;

/** A project install in /home/u/proj beside the user's: uninstalling one leaves an install. */
function alsoProjectInstall(deps: Parameters<typeof runInstall>[0]): void {
  must(runInstall(deps, opts({ scope: "project" })));
}

describe("installer, user scope", () => {
  it("upgrades an install of the .mjs hot bundles: commands now name the .cjs bundles, one group per event, the status line replaced, not wrapped; uninstall takes the old files too", () => {
    const B = "/home/u/.claude/quoin-checkpoint";
    const group = (event: string, bundle: string, matcher?: string) => ({
      ...(matcher ? { matcher } : {}),
      hooks: [
        {
          type: "command",
          command: `node "${B}/hooks/${bundle}.mjs"`,
          ...(event === "SessionEnd" ? {} : { timeout: 15 }),
        },
      ],
    });
    const old = {
      hooks: {
        SessionStart: [group("SessionStart", "sessionstart", "startup|resume|clear|compact")],
        UserPromptSubmit: [group("UserPromptSubmit", "userpromptsubmit")],
        PreCompact: [group("PreCompact", "precompact", "auto|manual")],
        SessionEnd: [group("SessionEnd", "sessionend")],
      },
      statusLine: { type: "command", command: `node "${B}/statusline.mjs"` },
    };
    const { deps, vol } = memDeps({
      ...BUILT,
      "/home/u/.claude/settings.json": `${JSON.stringify(old, null, 2)}\n`,
      [`${B}/statusline.mjs`]: "// old\n",
      [`${B}/hooks/sessionstart.mjs`]: "// old\n",
      [`${B}/quoin-checkpoint.mjs`]: "// old engine\n",
    });
    must(runInstall(deps, opts({ statusLine: true })));
    const settings = JSON.parse(
      snapshot(vol, "/home/u/.claude")["/home/u/.claude/settings.json"] as string,
    );
    for (const [event, bundle] of [
      ["SessionStart", "sessionstart"],
      ["UserPromptSubmit", "userpromptsubmit"],
      ["PreCompact", "precompact"],
      ["SessionEnd", "sessionend"],
    ] as const) {
      expect(settings.hooks[event]).toHaveLength(1);
      expect(settings.hooks[event][0].hooks.map((h: { command: string }) => h.command)).toEqual([
        `node "${B}/hooks/${bundle}.cjs"`,
      ]);
    }
    expect(settings.statusLine.command).toBe(`node "${B}/statusline.cjs"`);
    // the old bundles went to this run's backup folder, not left beside the new ones
    for (const old of ["statusline.mjs", "hooks/sessionstart.mjs", "quoin-checkpoint.mjs"]) {
      expect(vol.existsSync(`${B}/${old}`)).toBe(false);
      expect(
        vol.existsSync(
          `/home/u/.claude/quoin-checkpoint-backups/2026-11-29T213000Z-install/quoin-checkpoint/${old}`,
        ),
      ).toBe(true);
    }
    must(runInstall(deps, opts({ uninstall: true })));
    expect(
      Object.keys(snapshot(vol, "/home/u/.claude")).filter((f) => f.startsWith(`${B}/`)),
    ).toEqual([]);
  });

  it("installs into an empty home: bundles, skills, settings with four events, explicit timeouts except SessionEnd", () => {
    const { deps, vol } = memDeps(BUILT);
    must(runInstall(deps, opts()));
    const files = snapshot(vol, "/home/u/.claude");
    expect(Object.keys(files)).toEqual([
      "/home/u/.claude/quoin-checkpoint/any-ascii.cjs",
      "/home/u/.claude/quoin-checkpoint/hooks/precompact.cjs",
      "/home/u/.claude/quoin-checkpoint/hooks/sessionend.cjs",
      "/home/u/.claude/quoin-checkpoint/hooks/sessionstart.cjs",
      "/home/u/.claude/quoin-checkpoint/hooks/userpromptsubmit.cjs",
      "/home/u/.claude/quoin-checkpoint/install-state.json",
      "/home/u/.claude/quoin-checkpoint/quoin-checkpoint.cjs",
      "/home/u/.claude/quoin-checkpoint/statusline.cjs",
      "/home/u/.claude/settings.json",
      "/home/u/.claude/skills/checkpoint/SKILL.md",
      "/home/u/.claude/skills/cleanup/SKILL.md",
    ]);
    const settings = JSON.parse(files["/home/u/.claude/settings.json"] as string);
    expect(settings.hooks.SessionStart[0]).toEqual({
      matcher: "startup|resume|clear|compact|fork",
      hooks: [
        {
          type: "command",
          command: 'node "/home/u/.claude/quoin-checkpoint/hooks/sessionstart.cjs"',
          timeout: 15,
        },
      ],
    });
    expect(settings.hooks.UserPromptSubmit[0].matcher).toBeUndefined();
    expect(settings.hooks.PreCompact[0].matcher).toBe("auto|manual");
    expect(settings.hooks.PreCompact[0].hooks[0].timeout).toBe(30);
    // SessionEnd: every reason (no matcher) and no timeout, which would raise the 1.5 s budget of all the user's SessionEnd hooks.
    expect(settings.hooks.SessionEnd).toEqual([
      {
        hooks: [
          {
            type: "command",
            command: 'node "/home/u/.claude/quoin-checkpoint/hooks/sessionend.cjs"',
          },
        ],
      },
    ]);
  });

  it("a reinstall over a SessionStart matcher without fork (installs before 2.1.214's fork source) adds fork, the user's handler in that group kept", () => {
    const B = "/home/u/.claude/quoin-checkpoint";
    const old = {
      hooks: {
        SessionStart: [
          {
            matcher: "startup|resume|clear|compact",
            hooks: [
              { type: "command", command: `node "${B}/hooks/sessionstart.cjs"`, timeout: 15 },
              { type: "command", command: "~/bin/their-start" },
            ],
          },
        ],
      },
    };
    const { deps, vol } = memDeps({
      ...BUILT,
      "/home/u/.claude/settings.json": `${JSON.stringify(old, null, 2)}\n`,
    });
    expect(must(runInstall(deps, opts())).changed).toBe(true);
    const settings = JSON.parse(
      snapshot(vol, "/home/u/.claude")["/home/u/.claude/settings.json"] as string,
    );
    expect(settings.hooks.SessionStart).toHaveLength(1);
    expect(settings.hooks.SessionStart[0].matcher).toBe("startup|resume|clear|compact|fork");
    expect(settings.hooks.SessionStart[0].hooks.map((h: { command: string }) => h.command)).toEqual(
      [`node "${B}/hooks/sessionstart.cjs"`, "~/bin/their-start"],
    );
  });

  it("twice changes nothing, byte for byte; uninstall gives the empty home back (files kept in backups)", () => {
    const { deps, vol } = memDeps(BUILT);
    must(runInstall(deps, opts()));
    const first = snapshot(vol, "/home/u");
    const again = must(runInstall(deps, opts()));
    expect(again.changed).toBe(false);
    expect(snapshot(vol, "/home/u")).toEqual(first);
    must(runInstall(deps, opts({ uninstall: true })));
    const after = snapshot(vol, "/home/u/.claude");
    // Only backups remain (and the emptied skills/ folder).
    expect(
      Object.entries(after).filter(
        ([f, v]) => v !== null && !f.startsWith("/home/u/.claude/quoin-checkpoint-backups/"),
      ),
    ).toEqual([]);
    expect(vol.existsSync("/home/u/.claude/settings.json")).toBe(false);
    expect(Object.keys(after).some((f) => f.endsWith("/settings.json"))).toBe(true);
  });

  it("uninstall takes this install's prompt-hook code caches (every node's) and leaves another install's", () => {
    const { deps, vol } = memDeps({ ...BUILT, ...GIT_HEAD });
    must(runInstall(deps, opts()));
    alsoProjectInstall(deps);
    const cache = "/home/u/.cache/quoin-checkpoint";
    const ours = codeCachePrefix("/home/u/.claude/quoin-checkpoint/hooks/userpromptsubmit.cjs");
    const theirs = codeCachePrefix(
      "/home/u/proj/.claude/quoin-checkpoint/hooks/userpromptsubmit.cjs",
    );
    vol.mkdirSync(cache, { recursive: true });
    for (const name of [
      `${ours}v20.20.2-x64.v8cache`,
      `${ours}v24.22.3-x64.v8cache`,
      `${theirs}v24.22.3-x64.v8cache`,
    ])
      vol.writeFileSync(`${cache}/${name}`, "cache");
    must(runInstall(deps, opts({ uninstall: true })));
    expect(vol.readdirSync(cache)).toEqual([`${theirs}v24.22.3-x64.v8cache`]);
  });

  it("keeps the user's keys and hooks, wraps their status line, and uninstall restores the original bytes", () => {
    const { deps, vol } = memDeps({ ...BUILT, "/home/u/.claude/settings.json": THEIRS });
    const res = must(runInstall(deps, opts({ statusLine: true })));
    const text = vol.readFileSync("/home/u/.claude/settings.json", "utf8") as string;
    expect(text).toContain(
      '"UserPromptSubmit": [{ "hooks": [{ "type": "command", "command": "~/bin/log-prompt" }] }',
    );
    expect(text).toContain('"Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }]');
    const parsed = JSON.parse(text);
    expect(parsed.model).toBe("opus");
    expect(parsed.enabledPlugins).toEqual({});
    expect(parsed.hooks.UserPromptSubmit).toHaveLength(2);
    expect(parsed.statusLine.command).toBe(
      `node "/home/u/.claude/quoin-checkpoint/statusline.cjs" --wrap '~/bin/my-status'`,
    );
    expect(vol.readFileSync("/home/u/.claude/quoin-checkpoint/statusline.cjs", "utf8")).toBe(
      "// statusline\n",
    );
    expect(res.lines.join("\n")).toContain("backup of the previous settings");
    const backups = Object.entries(snapshot(vol, "/home/u/.claude/quoin-checkpoint-backups"));
    expect(backups).toHaveLength(1);
    expect(backups[0]?.[1]).toBe(THEIRS);

    const before = snapshot(vol, "/home/u");
    expect(must(runInstall(deps, opts({ statusLine: true }))).changed).toBe(false);
    expect(snapshot(vol, "/home/u")).toEqual(before);
    // A rerun without --statusline leaves the earlier status line, and says so.
    const rerun = must(runInstall(deps, opts()));
    expect(rerun.changed).toBe(false);
    expect(rerun.lines).toContain(
      "[quoin] the status line installed earlier (--statusline) stays as it is; --uninstall removes it",
    );
    expect(snapshot(vol, "/home/u")).toEqual(before);

    must(runInstall(deps, opts({ uninstall: true })));
    expect(vol.readFileSync("/home/u/.claude/settings.json", "utf8")).toBe(THEIRS);
    expect(vol.existsSync("/home/u/.claude/skills/checkpoint")).toBe(false);
    expect(vol.existsSync("/home/u/.claude/quoin-checkpoint")).toBe(false);
  });

  it.each([
    '{\n  "hooks": {}\n}\n',
    '{"hooks": {"SessionStart": []}}\n',
    '{ "model": "opus", "hooks": { "PreCompact": [], "Stop": [] } }\n',
  ])("uninstall keeps an empty hooks object or event array the user had: %s", (theirs) => {
    const { deps, vol } = memDeps({ ...BUILT, "/home/u/.claude/settings.json": theirs });
    must(runInstall(deps, opts()));
    expect(must(runInstall(deps, opts())).changed).toBe(false);
    must(runInstall(deps, opts({ uninstall: true })));
    expect(vol.readFileSync("/home/u/.claude/settings.json", "utf8")).toBe(theirs);
  });

  it("uninstall leaves the skills' 1M-dispatch config and cache in the bundle folder while another install remains", () => {
    const { deps, vol } = memDeps({ ...BUILT, ...GIT_HEAD });
    must(runInstall(deps, opts()));
    alsoProjectInstall(deps);
    vol.writeFileSync("/home/u/.claude/quoin-checkpoint/config.json", '{"1m_dispatch": "off"}\n');
    vol.writeFileSync("/home/u/.claude/quoin-checkpoint/dispatch-cache.json", "{}\n");
    must(runInstall(deps, opts({ uninstall: true })));
    expect(Object.keys(snapshot(vol, "/home/u/.claude/quoin-checkpoint"))).toEqual([
      "/home/u/.claude/quoin-checkpoint/config.json",
      "/home/u/.claude/quoin-checkpoint/dispatch-cache.json",
    ]);
    expect(
      Object.keys(snapshot(vol, "/home/u/.claude/quoin-checkpoint-backups")).some((f) =>
        f.endsWith("/quoin-checkpoint/hooks/precompact.cjs"),
      ),
    ).toBe(true);
  });

  it.each([false, true])(
    "refuses a settings.json it cannot read, and writes nothing (uninstall: %s)",
    (uninstall) => {
      const { deps, vol } = memDeps({ ...BUILT, "/home/u/.claude/settings.json": THEIRS });
      if (uninstall) must(runInstall(deps, opts()));
      const before = snapshot(vol, "/home/u");
      const openSync = deps.fs.openSync;
      deps.fs.openSync = ((file: string, ...rest: unknown[]) => {
        if (file === "/home/u/.claude/settings.json")
          throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
        return (openSync as (...a: unknown[]) => unknown)(file, ...rest);
      }) as typeof deps.fs.openSync;
      const res = runInstall(deps, opts({ uninstall }));
      expect(res).toMatchObject({ ok: false, reason: expect.stringContaining("EACCES") });
      expect(snapshot(vol, "/home/u")).toEqual(before);
    },
  );

  it("refuses a malformed settings.json with line and column and writes nothing", () => {
    const bad = '{\n  "model": "opus",\n  "hooks": {\n}\n';
    const { deps, vol } = memDeps({ ...BUILT, "/home/u/.claude/settings.json": bad });
    const before = snapshot(vol, "/");
    const res = runInstall(deps, opts());
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.reason).toMatch(/line 5, column 1: expected ',' or '}'/);
    expect(snapshot(vol, "/")).toEqual(before);
    expect(runInstall(deps, opts({ uninstall: true })).ok).toBe(false);
    expect(snapshot(vol, "/")).toEqual(before);
  });

  it("--dry-run prints the change and writes nothing", () => {
    const { deps, vol } = memDeps({ ...BUILT, "/home/u/.claude/settings.json": THEIRS });
    const before = snapshot(vol, "/");
    const res = must(runInstall(deps, opts({ dryRun: true })));
    expect(snapshot(vol, "/")).toEqual(before);
    expect(res.lines.join("\n")).toContain("would update /home/u/.claude/settings.json");
    expect(res.lines.some((l) => l.startsWith("+ ") && l.includes("precompact.cjs"))).toBe(true);
  });

  it("names a missing hook bundle and leaves its event out", () => {
    const partial: Record<string, string> = { ...BUILT };
    delete partial[`${DIST}/hooks/precompact.cjs`];
    const { deps, vol } = memDeps(partial);
    const res = must(runInstall(deps, opts()));
    expect(res.lines.join("\n")).toContain(
      "/repo/dist/hooks/precompact.cjs is missing: the PreCompact hook is NOT installed",
    );
    const settings = JSON.parse(
      vol.readFileSync("/home/u/.claude/settings.json", "utf8") as string,
    );
    expect(Object.keys(settings.hooks)).toEqual(["SessionStart", "UserPromptSubmit", "SessionEnd"]);
  });

  it("fails clearly without a build, and never overwrites a skill that is not quoin's", () => {
    expect(runInstall(memDeps({}).deps, opts())).toMatchObject({
      ok: false,
      reason: expect.stringContaining("npm run build"),
    });
    const { deps } = memDeps({ ...BUILT, "/home/u/.claude/skills/checkpoint/SKILL.md": "mine\n" });
    expect(runInstall(deps, opts())).toMatchObject({
      ok: false,
      reason: expect.stringContaining("is not quoin's"),
    });
  });
});

describe("installer, project scope", () => {
  it("installs into <repo>/.claude with ${CLAUDE_PROJECT_DIR} commands, and uninstalls cleanly", () => {
    const { deps, vol } = memDeps(
      { ...BUILT, "/home/u/proj/.git/HEAD": "ref: refs/heads/main\n" },
      { cwd: "/home/u/proj/src" },
    );
    must(runInstall(deps, opts({ scope: "project", statusLine: true })));
    const settings = JSON.parse(
      vol.readFileSync("/home/u/proj/.claude/settings.json", "utf8") as string,
    );
    expect(settings.statusLine.command).toBe(
      'node "${CLAUDE_PROJECT_DIR:-.}/.claude/quoin-checkpoint/statusline.cjs"',
    );
    expect(settings.hooks.UserPromptSubmit[0].hooks[0].command).toBe(
      'node "${CLAUDE_PROJECT_DIR}/.claude/quoin-checkpoint/hooks/userpromptsubmit.cjs"',
    );
    expect(vol.existsSync("/home/u/proj/.claude/skills/checkpoint/SKILL.md")).toBe(true);
    expect(vol.existsSync("/home/u/.claude")).toBe(false);
    must(runInstall(deps, opts({ scope: "project", statusLine: true, uninstall: true })));
    expect(vol.existsSync("/home/u/proj/.claude/settings.json")).toBe(false);
  });
});

describe("installer over the ES-module engine of an older install", () => {
  const B = "/home/u/.claude/quoin-checkpoint";
  const BACKUPS = "/home/u/.claude/quoin-checkpoint-backups";

  it("moves quoin-checkpoint.mjs to the backups (beside the settings copy), installs quoin-checkpoint.cjs and any-ascii.cjs; a rerun changes nothing", () => {
    const { deps, vol } = memDeps({
      ...BUILT,
      "/home/u/.claude/settings.json": "{}\n",
      [`${B}/quoin-checkpoint.mjs`]: "// old engine\n",
    });
    const res = must(runInstall(deps, opts()));
    expect(res.lines).toContain(
      `[quoin] move ${B}/quoin-checkpoint.mjs (replaced by its .cjs bundle) to ${BACKUPS}`,
    );
    expect(vol.existsSync(`${B}/quoin-checkpoint.mjs`)).toBe(false);
    expect(vol.readFileSync(`${B}/quoin-checkpoint.cjs`, "utf8")).toBe("// engine\n");
    expect(vol.readFileSync(`${B}/any-ascii.cjs`, "utf8")).toBe("// any-ascii\n");
    const backups = Object.keys(snapshot(vol, BACKUPS));
    expect(backups).toEqual([
      `${BACKUPS}/2026-11-29T213000Z-install/quoin-checkpoint/quoin-checkpoint.mjs`,
      `${BACKUPS}/2026-11-29T213000Z-install/settings.json`,
    ]);
    expect(vol.readFileSync(backups[0] as string, "utf8")).toBe("// old engine\n");
    const before = snapshot(vol, "/home/u");
    expect(must(runInstall(deps, opts())).changed).toBe(false);
    expect(snapshot(vol, "/home/u")).toEqual(before);
  });

  it("a dry run names the move and moves nothing", () => {
    const { deps, vol } = memDeps({ ...BUILT, [`${B}/quoin-checkpoint.mjs`]: "// old engine\n" });
    const res = must(runInstall(deps, opts({ dryRun: true })));
    expect(res.lines).toContain(
      `[quoin] would move ${B}/quoin-checkpoint.mjs (replaced by its .cjs bundle) to ${BACKUPS}`,
    );
    expect(vol.readFileSync(`${B}/quoin-checkpoint.mjs`, "utf8")).toBe("// old engine\n");
  });

  it("uninstall takes quoin-checkpoint.mjs and any-ascii.cjs too, and leaves the user's own files while another install remains", () => {
    const { deps, vol } = memDeps({ ...BUILT, ...GIT_HEAD });
    must(runInstall(deps, opts()));
    alsoProjectInstall(deps);
    vol.writeFileSync(`${B}/quoin-checkpoint.mjs`, "// old engine\n");
    vol.writeFileSync(`${B}/dispatch.json`, "{}\n");
    must(runInstall(deps, opts({ uninstall: true })));
    expect(Object.keys(snapshot(vol, B))).toEqual([`${B}/dispatch.json`]);
    const moved = Object.keys(snapshot(vol, BACKUPS)).map((f) => path.basename(f));
    expect(moved).toEqual(
      expect.arrayContaining(["quoin-checkpoint.mjs", "quoin-checkpoint.cjs", "any-ascii.cjs"]),
    );
  });

  it("rewrites a status line that ran the old engine's subcommand even without --statusline, keeping the wrapped command", () => {
    const old = `{"statusLine": {"type": "command", "command": "node \\"${B}/quoin-checkpoint.mjs\\" statusline --wrap '~/bin/my-status'"}}\n`;
    const { deps, vol } = memDeps({
      ...BUILT,
      "/home/u/.claude/settings.json": old,
      [`${B}/quoin-checkpoint.mjs`]: "// old engine\n",
    });
    const res = must(runInstall(deps, opts()));
    expect(res.lines).toContain(
      "[quoin] the status line installed earlier ran quoin-checkpoint.mjs: it now runs statusline.cjs (same gauge)",
    );
    const settings = JSON.parse(
      vol.readFileSync("/home/u/.claude/settings.json", "utf8") as string,
    );
    expect(settings.statusLine.command).toBe(`node "${B}/statusline.cjs" --wrap '~/bin/my-status'`);
    expect(vol.existsSync(`${B}/statusline.cjs`)).toBe(true);
    expect(must(runInstall(deps, opts())).changed).toBe(false);
  });

  it("leaves a status line that is not quoin's, and one of ours that already runs the bundle", () => {
    for (const command of [
      "~/bin/quoin-checkpoint.mjs-statusline",
      `node "${B}/statusline.cjs" --wrap 'x'`,
    ]) {
      const text = `${JSON.stringify({ statusLine: { type: "command", command } })}\n`;
      const { deps, vol } = memDeps({ ...BUILT, "/home/u/.claude/settings.json": text });
      must(runInstall(deps, opts()));
      expect(
        JSON.parse(vol.readFileSync("/home/u/.claude/settings.json", "utf8") as string).statusLine
          .command,
      ).toBe(command);
    }
  });

  it("warns, and installs the rest, when any-ascii.cjs was not built", () => {
    const { [`${DIST}/any-ascii.cjs`]: _gone, ...rest } = BUILT;
    const { deps, vol } = memDeps(rest);
    const res = must(runInstall(deps, opts()));
    expect(res.lines.join("\n")).toContain(
      `${DIST}/any-ascii.cjs is missing: a save writes '?' for non-ASCII free text`,
    );
    expect(vol.existsSync(`${B}/quoin-checkpoint.cjs`)).toBe(true);
  });
});

describe("installer and the status line of an older install", () => {
  it("moves a status line that ran the engine's subcommand to the bundle, keeping the user's wrapped command", () => {
    const old = `{"statusLine": {"type": "command", "command": "node \\"/home/u/.claude/quoin-checkpoint/quoin-checkpoint.mjs\\" statusline --wrap '~/bin/my-status'"}}\n`;
    const { deps, vol } = memDeps({ ...BUILT, "/home/u/.claude/settings.json": old });
    must(runInstall(deps, opts({ statusLine: true })));
    const settings = JSON.parse(
      vol.readFileSync("/home/u/.claude/settings.json", "utf8") as string,
    );
    expect(settings.statusLine.command).toBe(
      `node "/home/u/.claude/quoin-checkpoint/statusline.cjs" --wrap '~/bin/my-status'`,
    );
    must(runInstall(deps, opts({ uninstall: true })));
    expect(
      JSON.parse(vol.readFileSync("/home/u/.claude/settings.json", "utf8") as string).statusLine
        .command,
    ).toBe("~/bin/my-status");
  });

  it("refuses --statusline when the status-line bundle was not built", () => {
    const { [`${DIST}/statusline.cjs`]: _gone, ...rest } = BUILT;
    expect(runInstall(memDeps(rest).deps, opts({ statusLine: true }))).toMatchObject({
      ok: false,
      reason: expect.stringContaining("statusline.cjs is missing"),
    });
  });
});

describe("installer and unusual settings files", () => {
  it("writes through a symlinked settings.json (dotfile managers) and keeps the link", () => {
    const { deps, vol } = memDeps({ ...BUILT, "/home/u/dotfiles/claude-settings.json": THEIRS });
    vol.mkdirSync("/home/u/.claude", { recursive: true });
    vol.symlinkSync("/home/u/dotfiles/claude-settings.json", "/home/u/.claude/settings.json");
    must(runInstall(deps, opts()));
    expect(vol.lstatSync("/home/u/.claude/settings.json").isSymbolicLink()).toBe(true);
    expect(vol.readFileSync("/home/u/dotfiles/claude-settings.json", "utf8")).toContain(
      "userpromptsubmit.cjs",
    );
    must(runInstall(deps, opts({ uninstall: true })));
    expect(vol.lstatSync("/home/u/.claude/settings.json").isSymbolicLink()).toBe(true);
    expect(vol.readFileSync("/home/u/dotfiles/claude-settings.json", "utf8")).toBe(THEIRS);
  });

  it("keeps a leading byte-order mark", () => {
    const withBom = `\ufeff${THEIRS}`;
    const { deps, vol } = memDeps({ ...BUILT, "/home/u/.claude/settings.json": withBom });
    must(runInstall(deps, opts()));
    must(runInstall(deps, opts({ uninstall: true })));
    expect(vol.readFileSync("/home/u/.claude/settings.json", "utf8")).toBe(withBom);
  });
});

describe("installer and file modes", () => {
  it("keeps a private settings.json private; backups are 0600", () => {
    const { deps, vol } = memDeps({ ...BUILT, "/home/u/.claude/settings.json": THEIRS });
    vol.chmodSync("/home/u/.claude/settings.json", 0o600);
    must(runInstall(deps, opts()));
    expect(Number(vol.statSync("/home/u/.claude/settings.json").mode) & 0o777).toBe(0o600);
    const backup = Object.keys(snapshot(vol, "/home/u/.claude/quoin-checkpoint-backups")).find(
      (f) => f.endsWith("settings.json"),
    ) as string;
    expect(Number(vol.statSync(backup).mode) & 0o777).toBe(0o600);
  });
});
