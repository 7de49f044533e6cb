import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp-dirs.ts";
import { HOOK_SPECS, SKILL_NAMES } from "../../lib/install/install-layout.ts";

// The npm package end to end: `npm pack` of a clean copy of the tree (prepack builds it), the
// tarball installed with npm i -g into a temporary prefix and run through npx, each into its own
// HOME. The installed hooks must outlive the prefix and the npx cache.
const ROOT = path.resolve(import.meta.dirname, "..", "..");
const VERSION = (
  JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    version: string;
  }
).version;
const USER_SETTINGS = '{\n  "theme": "dark"\n}\n';

let work = "";
let tarball = "";
let olderTarball = "";

function env(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env["PATH"] ?? "",
    HOME: home,
    npm_config_cache: path.join(work, "npm-cache"),
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
    ...extra,
  };
}

function sh(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }) {
  const res = spawnSync(cmd, args, { ...opts, encoding: "utf8", timeout: 120_000 });
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

/** A copy of the tree as a clean checkout has it (git's files, this worktree's edits), node_modules linked. */
function cleanCopy(dir: string): void {
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\0")
    .filter((f) => f && !f.startsWith("dist/") && existsSync(path.join(ROOT, f)));
  for (const f of files) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    cpSync(path.join(ROOT, f), path.join(dir, f));
  }
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
}

function pack(dir: string, args: string[] = []): string {
  const out = execFileSync("npm", ["pack", "--silent", "--pack-destination", work, ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, npm_config_update_notifier: "false" },
    stdio: ["ignore", "pipe", "ignore"],
  });
  return path.join(work, out.trim().split("\n").pop() as string);
}

/** Every hook command settings.json names, run with a minimal event: exit 0 proves its file runs. */
function runHooks(home: string): Record<string, number | null> {
  const settings = JSON.parse(readFileSync(path.join(home, ".claude", "settings.json"), "utf8"));
  const out: Record<string, number | null> = {};
  for (const spec of HOOK_SPECS) {
    const command = settings.hooks[spec.event][0].hooks[0].command as string;
    const input = JSON.stringify({
      session_id: "pack-test-0000-0000-000000000001",
      transcript_path: path.join(home, "none.jsonl"),
      cwd: home,
      hook_event_name: spec.event,
      prompt: "hi",
      source: "startup",
      trigger: "auto",
      reason: "other",
    });
    const res = spawnSync("sh", ["-c", command], {
      input,
      env: env(home),
      cwd: home,
      timeout: 30_000,
    });
    out[spec.event] = res.status;
  }
  return out;
}

function freshHome(): string {
  const home = tempDir("quoin-pack-home-");
  mkdirSync(path.join(home, ".claude"));
  writeFileSync(path.join(home, ".claude", "settings.json"), USER_SETTINGS);
  return home;
}

function expectInstalledOutside(home: string, outside: string): void {
  const settings = readFileSync(path.join(home, ".claude", "settings.json"), "utf8");
  const bundleDir = path.join(home, ".claude", "quoin-checkpoint");
  for (const spec of HOOK_SPECS)
    expect(settings).toContain(`${bundleDir}/hooks/${spec.bundle}.cjs`);
  expect(settings).not.toContain(outside);
  for (const name of SKILL_NAMES) {
    const skill = readFileSync(path.join(home, ".claude", "skills", name, "SKILL.md"), "utf8");
    expect(skill).not.toContain(outside);
  }
}

function expectUninstalledExactly(home: string): void {
  expect(readFileSync(path.join(home, ".claude", "settings.json"), "utf8")).toBe(USER_SETTINGS);
  expect(existsSync(path.join(home, ".claude", "quoin-checkpoint"))).toBe(false);
  expect(existsSync(path.join(home, ".claude", "skills", "checkpoint"))).toBe(false);
}

beforeAll(() => {
  work = tempDir("quoin-pack-");
  const tree = path.join(work, "tree");
  cleanCopy(tree);
  tarball = pack(tree);
  // An older version: the same build, package.json saying 0.0.1 (the bin reads its version there).
  const pkgFile = path.join(tree, "package.json");
  writeFileSync(
    pkgFile,
    readFileSync(pkgFile, "utf8").replace(`"version": "${VERSION}"`, '"version": "0.0.1"'),
  );
  olderTarball = pack(tree, ["--ignore-scripts"]);
}, 240_000);

describe("the npm package", () => {
  it("holds the built bundles, skills, README and LICENSE, and nothing else", () => {
    const files = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" })
      .trim()
      .split("\n")
      .sort();
    expect(files).toEqual(
      [
        "LICENSE",
        "README.md",
        "dist/any-ascii.cjs",
        "dist/bin.cjs",
        ...HOOK_SPECS.map((h) => `dist/hooks/${h.bundle}.cjs`).sort(),
        "dist/installer.cjs",
        "dist/quoin-checkpoint.cjs",
        ...SKILL_NAMES.map((n) => `dist/skills/${n}/SKILL.md`),
        "dist/statusline.cjs",
        "package.json",
      ]
        .map((f) => `package/${f}`)
        .sort(),
    );
    const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
    expect(pkg.dependencies).toBeUndefined();
  });

  it("npm i -g, quoin-checkpoint install: hooks and skills copied out of the prefix, doctor passes, survives the prefix, uninstalls exactly", () => {
    const prefix = path.join(work, "prefix");
    const home = freshHome();
    const npmI = sh("npm", ["i", "-g", "--prefix", prefix, "--omit=dev", tarball], {
      cwd: work,
      env: env(home),
    });
    expect(npmI.code, npmI.out).toBe(0);
    const withBin = env(home, { PATH: `${path.join(prefix, "bin")}:${process.env["PATH"] ?? ""}` });
    expect(sh("quoin-checkpoint", ["--version"], { cwd: home, env: withBin }).out.trim()).toBe(
      VERSION,
    );

    const dry = sh("quoin-checkpoint", ["install", "--dry-run"], { cwd: home, env: withBin });
    expect(dry.code, dry.out).toBe(0);
    expect(existsSync(path.join(home, ".claude", "quoin-checkpoint"))).toBe(false);
    const install = sh("quoin-checkpoint", ["install"], { cwd: home, env: withBin });
    expect(install.code, install.out).toBe(0);
    expect(install.out).toContain("[quoin] or, from a shell: quoin-checkpoint doctor");
    expectInstalledOutside(home, prefix);

    const doctor = sh("quoin-checkpoint", ["doctor"], { cwd: home, env: withBin });
    expect(doctor.code, doctor.out).toBe(0);
    expect(doctor.out).toContain(
      `${VERSION}, this install's version: quoin-checkpoint <cmd> works`,
    );
    for (const spec of HOOK_SPECS)
      expect(doctor.out).toMatch(new RegExp(`ok .*${spec.event} hook: starts in`));

    // Every bundle runs from a prefix holding no dependencies (--omit=dev): the status line too.
    const statusLine = path.join(
      prefix,
      "lib",
      "node_modules",
      "quoin-checkpoint",
      "dist",
      "statusline.cjs",
    );
    expect(sh(process.execPath, [statusLine], { cwd: home, env: env(home) }).code).toBe(0);
    rmSync(prefix, { recursive: true, force: true });
    expect(runHooks(home)).toEqual(Object.fromEntries(HOOK_SPECS.map((s) => [s.event, 0])));
    const engine = path.join(home, ".claude", "quoin-checkpoint", "quoin-checkpoint.cjs");
    const after = sh(process.execPath, [engine, "doctor"], { cwd: home, env: env(home) });
    expect(after.code, after.out).toBe(0);
    expect(after.out).toContain("`quoin-checkpoint` on the PATH: none");

    const un = sh("npx", ["--yes", `file:${tarball}`, "uninstall"], { cwd: home, env: env(home) });
    expect(un.code, un.out).toBe(0);
    expectUninstalledExactly(home);
  }, 180_000);

  it("npx <tarball> install: the same install, which outlives the npx cache; over another version it says which replaced which", () => {
    const home = freshHome();
    const older = sh("npx", ["--yes", `file:${olderTarball}`, "install"], {
      cwd: home,
      env: env(home),
    });
    expect(older.code, older.out).toBe(0);
    expect(older.out).not.toContain("replaces");
    const up = sh("npx", ["--yes", `file:${tarball}`, "install"], { cwd: home, env: env(home) });
    expect(up.code, up.out).toBe(0);
    expect(up.out).toContain(`[quoin] upgrade: ${VERSION} replaces 0.0.1`);
    expectInstalledOutside(home, path.join(work, "npm-cache"));
    const state = JSON.parse(
      readFileSync(path.join(home, ".claude", "quoin-checkpoint", "install-state.json"), "utf8"),
    );
    expect(state).toMatchObject({
      packageVersion: VERSION,
      buildHash: expect.stringMatching(/^[0-9a-f]{12}$/),
    });

    rmSync(path.join(work, "npm-cache"), { recursive: true, force: true });
    expect(runHooks(home)).toEqual(Object.fromEntries(HOOK_SPECS.map((s) => [s.event, 0])));
    expect(readdirSync(path.join(home, ".claude", "quoin-checkpoint", "hooks")).sort()).toEqual(
      HOOK_SPECS.map((h) => `${h.bundle}.cjs`).sort(),
    );

    const down = sh("npx", ["--yes", `file:${olderTarball}`, "install"], {
      cwd: home,
      env: env(home),
    });
    expect(down.out).toContain(`[quoin] DOWNGRADE: 0.0.1 replaces ${VERSION}, a newer version`);
    const un = sh("npx", ["--yes", `file:${tarball}`, "uninstall"], { cwd: home, env: env(home) });
    expect(un.code, un.out).toBe(0);
    expectUninstalledExactly(home);
  }, 180_000);
});
