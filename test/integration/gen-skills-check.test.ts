import { spawnSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp-dirs.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const TSX = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");

function genSkills(args: string[]) {
  const res = spawnSync(
    process.execPath,
    [TSX, path.join(ROOT, "scripts", "gen-skills.ts"), ...args],
    { encoding: "utf8", cwd: ROOT },
  );
  return { code: res.status, out: res.stdout + res.stderr };
}

describe("gen-skills --check", () => {
  it("passes on a fresh copy, then fails after a template edit and after a preamble edit", () => {
    const tmp = tempDir("quoin-gen-");
    cpSync(path.join(ROOT, "skills"), path.join(tmp, "skills"), {
      recursive: true,
      filter: (src) => !src.includes(`${path.sep}engine`),
    });
    expect(genSkills(["--root", tmp]).code).toBe(0);
    expect(genSkills(["--root", tmp, "--check"]).code).toBe(0);

    const template = path.join(tmp, "skills", "cleanup", "SKILL.template.md");
    writeFileSync(
      template,
      readFileSync(template, "utf8").replace("Release the pidfile.", "Release the pidfile now."),
    );
    const stale = genSkills(["--root", tmp, "--check"]);
    expect(stale.code).toBe(1);
    expect(stale.out).toContain("dist/skills/cleanup/SKILL.md");
    expect(stale.out).not.toContain("checkpoint/SKILL.md");

    expect(genSkills(["--root", tmp]).code).toBe(0);
    const preamble = path.join(tmp, "skills", "_preamble", "model-dispatch.md");
    writeFileSync(preamble, `${readFileSync(preamble, "utf8")}\nOne more rule.\n`);
    const both = genSkills(["--root", tmp, "--check"]);
    expect(both.code).toBe(1);
    expect(both.out).toContain("dist/skills/checkpoint/SKILL.md");
    expect(both.out).toContain("dist/skills/cleanup/SKILL.md");
  });

  it("fails loudly on a template whose frontmatter is wrong", () => {
    const tmp = tempDir("quoin-gen-");
    cpSync(path.join(ROOT, "skills"), path.join(tmp, "skills"), { recursive: true });
    const template = path.join(tmp, "skills", "cleanup", "SKILL.template.md");
    writeFileSync(template, readFileSync(template, "utf8").replace("model: haiku", "model: gpt-9"));
    const r = genSkills(["--root", tmp]);
    expect(r.code).toBe(1);
    expect(r.out).toContain("skills/cleanup/SKILL.template.md: frontmatter: model");
  });
});
