import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { renderSkill, type RenderTarget } from "../lib/skills/skill-render.ts";

// skills/<name>/SKILL.template.md + skills/_preamble/model-dispatch.md -> <out>/<name>/SKILL.md.
// `--check` writes nothing and fails when an output is missing or differs (stale).

const PREAMBLE_PATH = path.join("skills", "_preamble", "model-dispatch.md");

export interface RenderedSkill {
  name: string;
  text: string;
}

function skillNames(root: string): string[] {
  return readdirSync(path.join(root, "skills"), { withFileTypes: true })
    .filter(
      (d) => d.isDirectory() && existsSync(path.join(root, "skills", d.name, "SKILL.template.md")),
    )
    .map((d) => d.name)
    .sort();
}

/** Render every skill for one target; throws with every problem listed. */
export function renderAllSkills(root: string, target: RenderTarget): RenderedSkill[] {
  const preamble = readFileSync(path.join(root, PREAMBLE_PATH), "utf8");
  const problems: string[] = [];
  const out: RenderedSkill[] = [];
  for (const name of skillNames(root)) {
    const rel = path.join("skills", name, "SKILL.template.md");
    const res = renderSkill(readFileSync(path.join(root, rel), "utf8"), preamble, target, rel);
    if (!res.ok) problems.push(res.reason);
    else if (res.frontmatter.name !== name)
      problems.push(`${rel}: name '${res.frontmatter.name}' differs from its folder '${name}'`);
    else out.push({ name, text: res.text });
  }
  if (problems.length) throw new Error(`gen-skills: ${problems.join("\n")}`);
  return out;
}

export function writeSkills(outDir: string, skills: readonly RenderedSkill[]): string[] {
  return skills.map((s) => {
    const file = path.join(outDir, s.name, "SKILL.md");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, s.text);
    return file;
  });
}

/** The outputs that are missing or differ from what the templates render now. */
export function staleSkills(outDir: string, skills: readonly RenderedSkill[]): string[] {
  return skills
    .map((s) => path.join(outDir, s.name, "SKILL.md"))
    .filter((file, i) => !existsSync(file) || readFileSync(file, "utf8") !== skills[i]?.text);
}

function main(argv: string[]): number {
  const { values } = parseArgs({
    args: argv,
    options: {
      check: { type: "boolean", default: false },
      root: { type: "string" },
      out: { type: "string" },
      target: { type: "string", default: "settings" },
    },
  });
  const root = path.resolve(values.root ?? path.join(import.meta.dirname, ".."));
  const target = values.target === "plugin" ? "plugin" : "settings";
  const outDir = path.resolve(
    root,
    values.out ?? path.join("dist", target === "plugin" ? "plugin/skills" : "skills"),
  );
  const skills = renderAllSkills(root, target);
  if (values.check) {
    const stale = staleSkills(outDir, skills);
    if (stale.length) {
      console.error(
        `gen-skills --check: stale or missing: ${stale.map((f) => path.relative(root, f)).join(", ")}; run npm run gen-skills`,
      );
      return 1;
    }
    console.log(
      `gen-skills --check: ${skills.length} skills up to date in ${path.relative(root, outDir)}`,
    );
    return 0;
  }
  for (const file of writeSkills(outDir, skills))
    console.log(`rendered ${path.relative(root, file)}  ${readFileSync(file).length} B`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    process.exitCode = 1;
  }
}
