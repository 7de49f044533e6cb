import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { formatDoctor, runDoctorChecks } from "../../../lib/install/doctor-checks.ts";
import {
  engineInstaller,
  installerCommand,
  packageInvocation,
  type Invocation,
} from "../../../lib/install/install-invocation.ts";
import { runInstall, type InstallOptions } from "../../../lib/install/installer.ts";
import type { Deps } from "../../../lib/core/deps.ts";
import { memDeps, snapshot } from "../../helpers/mem-install-deps.ts";
import { BUILT, GIT_HEAD, installOptions } from "../../helpers/install-world.ts";

const NPM_GLOBAL: Invocation = { via: "npm-global", command: "quoin-checkpoint" };
const CLONE: Invocation = { via: "clone", command: "npm --prefix /src run setup --" };

function install(deps: Deps, o: Partial<InstallOptions> = {}) {
  const r = runInstall(deps, installOptions(o));
  if (!r.ok) throw new Error(r.reason);
  return r;
}

const passing = { run: () => ({ status: 0, stdout: "", stderr: "" }) };

describe("a double install (user + project in one repository)", () => {
  it("install warns, naming the command that removes the other, as its own installer types it", () => {
    const { deps } = memDeps({ ...BUILT, ...GIT_HEAD });
    install(deps, { invocation: NPM_GLOBAL });
    const project = install(deps, { scope: "project", invocation: CLONE });
    expect(project.lines).toContain(
      "[quoin] WARNING: user install at /home/u/.claude too: with this project install every hook runs twice. Keep one; remove that one with: quoin-checkpoint uninstall",
    );
    const user = install(deps, { invocation: NPM_GLOBAL });
    expect(user.lines.join("\n")).toContain(
      "remove that one with: npm --prefix /src run setup -- --uninstall --scope project --project /home/u/proj",
    );
  });

  it("doctor fails it: every hook runs twice", () => {
    const { deps } = memDeps({ ...BUILT, ...GIT_HEAD }, passing);
    install(deps, { invocation: NPM_GLOBAL });
    install(deps, { scope: "project", invocation: NPM_GLOBAL });
    const text = formatDoctor(runDoctorChecks(deps, { nodeVersion: "v20.20.2" }));
    expect(text).toContain(
      "FAIL  one install only: every hook runs twice: user install /home/u/.claude and project install /home/u/proj/.claude",
    );
    expect(text).toContain(
      "fix: keep one: quoin-checkpoint uninstall --scope project --project /home/u/proj",
    );
  });

  it("a single install has no such warning", () => {
    const { deps } = memDeps({ ...BUILT, ...GIT_HEAD }, passing);
    expect(install(deps).lines.join("\n")).not.toContain("runs twice");
    expect(formatDoctor(runDoctorChecks(deps, { nodeVersion: "v20.20.2" }))).not.toContain(
      "one install only",
    );
  });
});

describe("a project uninstall leaves the repository as it was", () => {
  it.each([
    ["without a .claude folder before", {}],
    [
      "with the person's own .claude/settings.local.json",
      { "/home/u/proj/.claude/settings.local.json": "{}\n" },
    ],
  ])("%s: same files after, backups in the user's config folder", (_label, before) => {
    const { deps, vol } = memDeps({ ...BUILT, ...GIT_HEAD, ...before });
    const had = snapshot(vol, "/home/u/proj");
    install(deps, { scope: "project" });
    const un = install(deps, { scope: "project", uninstall: true });
    expect(snapshot(vol, "/home/u/proj")).toEqual(had);
    expect(vol.existsSync("/home/u/proj/.claude")).toBe(Object.keys(before).length > 0);
    const backups = Object.keys(snapshot(vol, "/home/u/.claude/quoin-checkpoint-backups"));
    expect(
      backups.some(
        (f) => f.includes("/projects/-home-u-proj/") && f.endsWith("/hooks/precompact.cjs"),
      ),
    ).toBe(true);
    expect(un.lines.join("\n")).toContain(
      "/home/u/.claude/quoin-checkpoint-backups/projects/-home-u-proj/",
    );
  });
});

describe("the last uninstall leaves nothing of quoin's but its backups", () => {
  it("the shared folders (session registry, dispatch config, code cache) go to the backups, empty folders removed", () => {
    const { deps, vol } = memDeps({
      ...BUILT,
      "/home/u/.claude/settings.json": '{"model":"opus"}\n',
    });
    install(deps);
    vol.mkdirSync("/home/u/.claude/quoin-checkpoint/state", { recursive: true });
    vol.writeFileSync("/home/u/.claude/quoin-checkpoint/state/session-x.json", "{}\n");
    vol.writeFileSync("/home/u/.claude/quoin-checkpoint/config.json", "{}\n");
    vol.mkdirSync("/home/u/.cache/quoin-checkpoint", { recursive: true });
    vol.writeFileSync(
      "/home/u/.cache/quoin-checkpoint/userpromptsubmit-0-v20-x64-abc.v8cache",
      "c",
    );
    install(deps, { uninstall: true });
    expect(vol.existsSync("/home/u/.claude/quoin-checkpoint")).toBe(false);
    expect(vol.existsSync("/home/u/.cache/quoin-checkpoint")).toBe(false);
    expect(vol.existsSync("/home/u/.claude/skills")).toBe(false);
    expect(vol.readFileSync("/home/u/.claude/settings.json", "utf8")).toBe('{"model":"opus"}\n');
    const kept = Object.keys(snapshot(vol, "/home/u/.claude/quoin-checkpoint-backups")).map((f) =>
      path.basename(f),
    );
    expect(kept).toEqual(
      expect.arrayContaining([
        "session-x.json",
        "config.json",
        "userpromptsubmit-0-v20-x64-abc.v8cache",
      ]),
    );
  });

  it("a skills folder the person had stays", () => {
    const { deps, vol } = memDeps({ ...BUILT, "/home/u/.claude/skills/mine/SKILL.md": "x\n" });
    install(deps);
    install(deps, { uninstall: true });
    expect(vol.existsSync("/home/u/.claude/skills/mine/SKILL.md")).toBe(true);
    const empty = memDeps(BUILT);
    empty.vol.mkdirSync("/home/u/.claude/skills", { recursive: true });
    install(empty.deps);
    install(empty.deps, { uninstall: true });
    expect(empty.vol.existsSync("/home/u/.claude/skills")).toBe(true);
  });
});

describe("backups stay bounded", () => {
  const B = "/home/u/.claude/quoin-checkpoint-backups";
  const old = (n: number) => `2026-09-0${n}T120000Z-install`; // past 30 days on 2026-11-29
  const recent = (n: number) => `2026-11-1${n}T120000Z-install`;
  it("keeps the newest five runs; older ones go only past 30 days", () => {
    const names = [old(1), old(2), old(3), old(4), recent(1), recent(2), recent(3)];
    const { deps, vol } = memDeps({
      ...BUILT,
      ...Object.fromEntries(names.map((n) => [`${B}/${n}/settings.json`, "{}\n"])),
      "/home/u/.claude/settings.json": "{}\n",
    });
    install(deps);
    const left = (vol.readdirSync(B) as string[]).sort();
    expect(left).toHaveLength(5);
    expect(left).toEqual([
      old(4),
      recent(1),
      recent(2),
      recent(3),
      expect.stringMatching(/^2026-11-29T/),
    ]);
  });

  it("never deletes a backup younger than 30 days, however many", () => {
    const names = [1, 2, 3, 4, 5, 6, 7].map(recent);
    const { deps, vol } = memDeps({
      ...BUILT,
      ...Object.fromEntries(names.map((n) => [`${B}/${n}/settings.json`, "{}\n"])),
      "/home/u/.claude/settings.json": "{}\n",
    });
    install(deps);
    expect(vol.readdirSync(B)).toHaveLength(8);
  });
});

describe("advice that fits the install", () => {
  it("doctor's fixes name the installer that made the install, never npm run setup for a package install", () => {
    const { deps, vol } = memDeps(BUILT, passing);
    install(deps, { invocation: NPM_GLOBAL });
    vol.unlinkSync("/home/u/.claude/skills/cleanup/SKILL.md");
    const text = formatDoctor(runDoctorChecks(deps, { nodeVersion: "v20.20.2" }));
    expect(text).toContain("fix: run quoin-checkpoint install");
    expect(text).not.toContain("npm run setup");
  });

  it("doctor respects CLAUDE_CONFIG_DIR, in what it finds and in what it says", () => {
    const { deps } = memDeps(BUILT, { ...passing, env: { CLAUDE_CONFIG_DIR: "/cfg" } });
    const none = runDoctorChecks(deps, { nodeVersion: "v20.20.2" });
    expect(none.find((c) => c.name === "installed files")?.detail).toContain("under /cfg");
    install(deps, { invocation: NPM_GLOBAL });
    const text = formatDoctor(runDoctorChecks(deps, { nodeVersion: "v20.20.2" }));
    expect(text).toContain("ok    user install (/cfg): engine");
    expect(text).not.toContain("installed files");
  });

  it("the installer knows npx by npm's word, and takes what npx was given from npx's folder", () => {
    const dist = "/c/_npx/ab12/node_modules/quoin-checkpoint/dist";
    const { deps } = memDeps({
      "/c/_npx/ab12/package.json": JSON.stringify({ _npx: { packages: ["file:/t/q 1.tgz"] } }),
      [`${dist}/bin.cjs`]: "",
    });
    const inv = packageInvocation({ ...deps, env: { npm_command: "exec" } }, dist, "0.1.0");
    expect(inv).toEqual({ via: "npx", command: "npx 'file:/t/q 1.tgz'" });
    expect(installerCommand(inv, "uninstall", ["--scope", "project", "--project", "/p"])).toBe(
      "npx 'file:/t/q 1.tgz' uninstall --scope project --project /p",
    );
  });

  it("names quoin-checkpoint only when the one on the PATH is this very package", () => {
    const dist = "/g/lib/node_modules/quoin-checkpoint/dist";
    const { deps, vol } = memDeps({ [`${dist}/bin.cjs`]: "" });
    vol.mkdirSync("/g/bin", { recursive: true });
    vol.symlinkSync(`${dist}/bin.cjs`, "/g/bin/quoin-checkpoint");
    expect(packageInvocation({ ...deps, env: { PATH: "/g/bin" } }, dist, "0.1.0").via).toBe(
      "npm-global",
    );
    const other = "/h/lib/node_modules/quoin-checkpoint/dist";
    vol.mkdirSync(other, { recursive: true });
    vol.writeFileSync(`${other}/bin.cjs`, "");
    expect(packageInvocation({ ...deps, env: { PATH: "/g/bin" } }, other, "0.1.0")).toEqual({
      via: "package-path",
      command: `node ${other}/bin.cjs`,
    });
  });

  it("an engine in a clone's dist names the clone's installer; the plugin names /plugin", () => {
    const { deps } = memDeps({ "/src/install.ts": "", "/src/dist/quoin-checkpoint.cjs": "" });
    expect(engineInstaller({ ...deps, engineScript: "/src/dist/quoin-checkpoint.cjs" })).toEqual(
      CLONE,
    );
    expect(engineInstaller({ ...deps, env: { CLAUDE_PLUGIN_ROOT: "/p" } })?.via).toBe("plugin");
  });
});
