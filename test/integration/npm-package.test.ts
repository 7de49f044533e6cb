import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
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
  // the last install gone: no shared folder, no code cache, no skills folder it created
  expect(existsSync(path.join(home, ".claude", "skills"))).toBe(false);
  expect(existsSync(path.join(home, ".cache", "quoin-checkpoint"))).toBe(false);
}

/**
 * Every engine or installer command in `text` printed for a person to run: `node '<engine>' ...`,
 * `quoin-checkpoint <cmd>`, `npx <spec> ...`, `npm --prefix <clone> run setup -- ...`, each cut
 * where the sentence around it goes on. Client commands (claude, /plugin) are not collected.
 */
function printedCommands(text: string): string[] {
  const re =
    /(?:node '[^']+'|node "[^"]+"|quoin-checkpoint(?= [a-z][a-z-]*)|npx (?:'[^']+'|\S+)|npm --prefix \S+ run setup --)[^\n;,()]*/g;
  // a usage line is a synopsis ([--flag X]), not a command to run
  const found = [...text.replace(/^usage: .*$/gm, "").matchAll(re)].map((m) =>
    m[0]
      .replace(/ (or|then|and|to|shows|resumes|once|if)\b.*$/, "")
      .replace(/[.:]\s*$/, "")
      .trim(),
  );
  return [...new Set(found)];
}

/** Runs each printed command as printed (uninstalls last): none is a usage error or unknown to the shell. */
function runPrinted(commands: readonly string[], cwd: string, env: NodeJS.ProcessEnv): void {
  const last = (c: string) => (/ uninstall\b|--uninstall/.test(c) ? 1 : 0);
  for (const command of [...commands].sort((a, b) => last(a) - last(b))) {
    const res = spawnSync("sh", ["-c", command], { cwd, env, encoding: "utf8", timeout: 120_000 });
    const said = `${command}\n${res.stdout}${res.stderr}`;
    expect(res.status === 2 || res.status === 126 || res.status === 127, said).toBe(false);
    expect(said).not.toMatch(/unknown option|unknown command|command not found|Cannot find module/);
  }
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
  it("holds the built bundles, skills, README, docs/ and LICENSE, and nothing else", () => {
    const files = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" })
      .trim()
      .split("\n")
      .sort();
    expect(files).toEqual(
      [
        "LICENSE",
        "README.md",
        ...readdirSync(path.join(ROOT, "docs"))
          .filter((f) => f.endsWith(".md"))
          .map((f) => `docs/${f}`),
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
    // docs/ is text: 484 KB packed without it, 547 KB with it (2026-12-03, docs/install.md)
    expect(statSync(tarball).size).toBeLessThan(700_000);
  });

  it("every relative link of README.md and docs/ names a file the tarball holds", () => {
    const unpacked = path.join(work, "unpacked");
    mkdirSync(unpacked, { recursive: true });
    execFileSync("tar", ["xzf", tarball, "-C", unpacked]);
    const pkg = path.join(unpacked, "package");
    const pages = ["README.md", ...readdirSync(path.join(pkg, "docs")).map((f) => `docs/${f}`)];
    const broken: string[] = [];
    let links = 0;
    for (const page of pages) {
      const text = readFileSync(path.join(pkg, page), "utf8");
      for (const m of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const target = m[1] as string;
        if (/^[a-z]+:/.test(target)) continue;
        links += 1;
        if (!existsSync(path.join(pkg, path.dirname(page), target)))
          broken.push(`${page} -> ${target}`);
      }
    }
    expect(links).toBeGreaterThan(20);
    expect(broken).toEqual([]);
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
    runPrinted(
      printedCommands(install.out.replace(/^.*\b(?:write|move|update)\b.*$/gm, "")),
      home,
      withBin,
    );
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
    // npx's own folder is on the PATH while it runs: the doctor named is the installed engine's
    const engineFile = path.join(home, ".claude", "quoin-checkpoint", "quoin-checkpoint.cjs");
    expect(up.out).toContain(`[quoin] check it with: node '${engineFile}' doctor`);
    expect(up.out).not.toContain("quoin-checkpoint doctor");
    const doctor = sh("sh", ["-c", `node '${engineFile}' doctor`], { cwd: home, env: env(home) });
    expect(doctor.code, doctor.out).toBe(0);
    expect(doctor.out).not.toContain("npm run setup");
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

  it("user + project install in one repository: install warns, doctor fails, the printed fix removes the project one and leaves the repository clean", () => {
    const prefix = path.join(work, "prefix-double");
    const home = freshHome();
    const npmI = sh("npm", ["i", "-g", "--prefix", prefix, "--omit=dev", tarball], {
      cwd: work,
      env: env(home),
    });
    expect(npmI.code, npmI.out).toBe(0);
    const withBin = env(home, { PATH: `${path.join(prefix, "bin")}:${process.env["PATH"] ?? ""}` });
    const repo = path.join(home, "repo");
    mkdirSync(repo);
    for (const args of [
      ["init", "-q"],
      ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "x"],
    ])
      expect(sh("git", args, { cwd: repo, env: withBin }).code).toBe(0);
    expect(sh("quoin-checkpoint", ["install"], { cwd: repo, env: withBin }).code).toBe(0);
    const project = sh("quoin-checkpoint", ["install", "--scope", "project"], {
      cwd: repo,
      env: withBin,
    });
    expect(project.code, project.out).toBe(0);
    expect(project.out).toContain(
      `[quoin] WARNING: user install at ${path.join(home, ".claude")} too: with this project install every hook runs twice. Keep one; remove that one with: quoin-checkpoint uninstall`,
    );
    const engine = path.join(home, ".claude", "quoin-checkpoint", "quoin-checkpoint.cjs");
    const doctor = sh(process.execPath, [engine, "doctor"], { cwd: repo, env: withBin });
    expect(doctor.code, doctor.out).toBe(1);
    expect(doctor.out).toContain(
      `FAIL  one install only: every hook runs twice: user install ${path.join(home, ".claude")} and project install ${path.join(repo, ".claude")}`,
    );
    const fix = /fix: keep one: (.*) \(or the user install/.exec(doctor.out)?.[1];
    expect(fix).toBe(`quoin-checkpoint uninstall --scope project --project ${repo}`);
    const removed = sh("sh", ["-c", fix!], { cwd: home, env: withBin });
    expect(removed.code, removed.out).toBe(0);
    expect(sh("git", ["status", "--porcelain", "--ignored"], { cwd: repo, env: withBin }).out).toBe(
      "",
    );
    const again = sh(process.execPath, [engine, "doctor"], { cwd: repo, env: withBin });
    expect(again.code, again.out).toBe(0);
    runPrinted(printedCommands(again.out), repo, withBin);
    expect(sh("quoin-checkpoint", ["uninstall"], { cwd: home, env: withBin }).code).toBe(0);
    expectUninstalledExactly(home);
  }, 180_000);

  it("with CLAUDE_CONFIG_DIR: npx install goes there, doctor finds it there; every command the engine prints for a person runs as printed", () => {
    const home = freshHome();
    const config = path.join(home, "cfg");
    const withConfig = env(home, { CLAUDE_CONFIG_DIR: config });
    const install = sh("npx", ["--yes", `file:${tarball}`, "install"], {
      cwd: home,
      env: withConfig,
    });
    expect(install.code, install.out).toBe(0);
    const engine = path.join(config, "quoin-checkpoint", "quoin-checkpoint.cjs");
    expect(install.out).toContain(`check it with: node '${engine}' doctor`);
    const doctor = sh(process.execPath, [engine, "doctor"], { cwd: home, env: withConfig });
    expect(doctor.code, doctor.out).toBe(0);
    expect(doctor.out).toContain(`user install (${config})`);

    // A project with a transcript of its own: the engine's texts for a person, each command run.
    const repo = path.join(home, "proj");
    mkdirSync(path.join(repo, ".workflow_artifacts"), { recursive: true });
    const sid = "4d5611e5-1111-4222-8333-444455556666";
    const transcripts = path.join(config, "projects", repo.replace(/[^A-Za-z0-9-]/g, "-"));
    mkdirSync(transcripts, { recursive: true });
    writeFileSync(
      path.join(transcripts, `${sid}.jsonl`),
      `${JSON.stringify({ type: "assistant", timestamp: "2026-12-01T00:00:00.000Z", message: { model: "claude-sonnet-4-5", usage: { input_tokens: 1000 } } })}\n`,
    );
    const run = (args: string[]) =>
      sh(process.execPath, [engine, ...args], { cwd: repo, env: withConfig });
    expect(run(["save", "--task", "t1"]).code).toBe(0);
    const texts = [
      run(["--help"]).out,
      ...[
        "save",
        "restore",
        "defer",
        "cleanup",
        "status",
        "successor",
        "list",
        "show",
        "doctor",
        "share",
        "fetch",
      ].map((c) => run([c, "--help"]).out),
      run(["restore"]).out,
      run(["list"]).out,
      run(["status"]).out,
      run(["doctor"]).out,
    ].join("\n");
    expect(run(["status"]).out).toContain("session 4d5611e5 (newest transcript in this project)");
    const commands = printedCommands(texts).filter(
      (c) => !/ (dispatch|pidfile|statusline|snapshot|share|fetch)\b/.test(c),
    );
    expect(commands.length).toBeGreaterThan(8);
    runPrinted(commands, repo, withConfig);
  }, 180_000);
  it("past the block tier on a guessed window, the prompt hook's way to make the window known fits the install and runs as printed", () => {
    const home = freshHome();
    const run = env(home);
    const install = sh("npx", ["--yes", `file:${tarball}`, "install", "--no-statusline"], {
      cwd: home,
      env: run,
    });
    expect(install.code, install.out).toBe(0);
    const settingsFile = path.join(home, ".claude", "settings.json");
    expect(readFileSync(settingsFile, "utf8")).not.toContain("statusline.cjs");

    // A session at 160k of a model that offers 200k or 1M: the window is a guess, past 95 %.
    const repo = path.join(home, "proj");
    mkdirSync(path.join(repo, ".workflow_artifacts"), { recursive: true });
    const sid = "4d5611e5-1111-4222-8333-444455556667";
    const transcript = path.join(home, "t.jsonl");
    writeFileSync(
      transcript,
      `${JSON.stringify({ type: "assistant", timestamp: "2026-12-01T00:00:00.000Z", message: { model: "claude-sonnet-4-5", usage: { input_tokens: 160_000 } } })}\n`,
    );
    const prompt = () => {
      const settings = JSON.parse(readFileSync(settingsFile, "utf8"));
      const command = settings.hooks.UserPromptSubmit[0].hooks[0].command as string;
      const res = spawnSync("sh", ["-c", command], {
        input: JSON.stringify({
          session_id: sid,
          transcript_path: transcript,
          cwd: repo,
          hook_event_name: "UserPromptSubmit",
          prompt: "go on",
        }),
        env: run,
        cwd: repo,
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(res.status, res.stderr).toBe(0);
      return String(JSON.parse(res.stdout).hookSpecificOutput?.additionalContext ?? "");
    };

    const off = prompt();
    expect(off).toContain("the window is assumed, not known");
    expect(off).toMatch(/turn the recorder on with npx \S+ install, or set QUOIN_CONTEXT_WINDOW/);
    const commands = printedCommands(off);
    expect(commands).toEqual([expect.stringMatching(/^npx \S+ install$/)]);
    runPrinted(commands, repo, run);
    expect(JSON.parse(readFileSync(settingsFile, "utf8")).statusLine.command).toMatch(
      /statusline\.cjs" --quiet$/,
    );

    // The recorder is in now, and has not run: no interactive client drew a status line.
    const on = prompt();
    expect(on).toContain(
      "this install's status-line recorder records the window once the interactive client draws its status line",
    );
    expect(printedCommands(on)).toEqual([]);
    expect(sh("npx", ["--yes", `file:${tarball}`, "uninstall"], { cwd: home, env: run }).code).toBe(
      0,
    );
    expectUninstalledExactly(home);
  }, 180_000);
});
