import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import matter from "gray-matter";
import { fitShow } from "../../../lib/restore/brief/brief-fit.ts";
import { describe, expect, it } from "vitest";
import {
  ENGINE_COMMAND,
  RenderedFrontmatterSchema,
  renderSkill,
  SKILL_SIZE_BUDGET_BYTES,
  validateRendered,
} from "../../../lib/skills/skill-render.ts";
import { renderAllSkills } from "../../../scripts/gen-skills.ts";
import { PLUGIN_COMMAND, withCommand } from "../../../lib/core/checkpoint-command.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const PREAMBLE = readFileSync(path.join(ROOT, "skills/_preamble/model-dispatch.md"), "utf8");

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    if (
      d.isSymbolicLink() ||
      d.name === "node_modules" ||
      d.name === "dist" ||
      d.name.startsWith(".")
    )
      return [];
    return d.isDirectory()
      ? filesUnder(path.join(dir, d.name))
      : d.isFile()
        ? [path.join(dir, d.name)]
        : [];
  });
}

describe.each(["settings", "plugin"] as const)("rendered skills (%s target)", (target) => {
  const skills = renderAllSkills(ROOT, target);

  it("renders checkpoint and cleanup", () => {
    expect(skills.map((s) => s.name)).toEqual(["checkpoint", "cleanup"]);
  });

  it.each(skills.map((s) => [s.name, s.text] as const))(
    "%s round-trips through gray-matter and zod",
    (name, text) => {
      const parsed = matter(text, {});
      const fm = RenderedFrontmatterSchema.parse(parsed.data);
      expect(fm.name).toBe(name);
      // the rendered skill stays at or under 6 KiB (6,144 bytes): the model reads it whole on
      // every /checkpoint, so per-case wording belongs in the engine's answers
      expect(SKILL_SIZE_BUDGET_BYTES).toBe(6144);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(6144);
      expect(validateRendered(text).ok).toBe(true);
      // allowed-tools pre-approve exactly the engine commands the body runs
      const engine = ENGINE_COMMAND[target];
      expect(fm["allowed-tools"].every((t) => t.startsWith(`Bash(${engine} `))).toBe(true);
      expect(parsed.content).toContain(`!\`${engine} dispatch decide --tier ${fm.model}\``);
      expect(parsed.content).not.toMatch(/\{\{[A-Z]+\}\}/);
      expect(parsed.content).toContain("--session ${CLAUDE_SESSION_ID}");
    },
  );

  it("checkpoint runs save, share, restore, defer and the preamble's commands; cleanup runs cleanup", () => {
    const tools = (name: string) =>
      RenderedFrontmatterSchema.parse(
        matter(skills.find((s) => s.name === name)?.text ?? "", {}).data,
      )["allowed-tools"].map((t) => /\S+ (\S+) \*\)$/.exec(t)?.[1]);
    expect(tools("checkpoint")).toEqual([
      "dispatch",
      "pidfile",
      "save",
      "share",
      "restore",
      "defer",
    ]);
    expect(tools("cleanup")).toEqual(["dispatch", "pidfile", "cleanup"]);
  });

  // 2.1.332's /rewind has the alias /checkpoint: a plugin's skill is typed by its plugin name.
  it("names the command the user types for this install, and never a bare /checkpoint in the plugin", () => {
    const prefix = target === "plugin" ? "/quoin-checkpoint:" : "/";
    for (const s of skills) {
      expect(s.text).toContain(`\n# ${prefix}${s.name}\n`);
      if (target === "plugin")
        expect(withCommand(s.text, PLUGIN_COMMAND), `${s.name}: a bare /checkpoint`).toBe(s.text);
    }
  });
});

describe("the preamble", () => {
  it("has one source: its text appears in no other file of the repository", () => {
    const probes = [
      "Quoin self-dispatch hard-cap reached",
      "Usage credits required for 1M context",
      "quoin-stage-1: error-class=worktree",
    ];
    // plugin/ holds rendered copies (checked by the plugin freshness test); tests quote the text.
    const sources = filesUnder(ROOT).filter(
      (f) => !path.relative(ROOT, f).startsWith(`plugin${path.sep}`) && !f.endsWith(".test.ts"),
    );
    for (const probe of probes) {
      const holders = sources
        .filter((f) => readFileSync(f, "utf8").includes(probe))
        .map((f) => path.relative(ROOT, f));
      expect(holders).toEqual(["skills/_preamble/model-dispatch.md"]);
    }
  });

  it("renders once into each skill", () => {
    for (const s of renderAllSkills(ROOT, "settings"))
      expect(s.text.split("## 0. Model dispatch").length).toBe(2);
  });
});

describe("renderSkill refuses", () => {
  const template = (fm: string, body = "{{PREAMBLE}}\nRun `E save --json`.\n") =>
    `---\n${fm}\n---\n${body}`;
  const good =
    'name: demo\ndescription: "A demo skill that is long enough."\nmodel: haiku\nargument-hint: "[x]"';

  it("accepts a good template", () => {
    expect(renderSkill(template(good), PREAMBLE, "settings")).toMatchObject({ ok: true });
  });
  it.each([
    ["a missing model", good.replace("model: haiku\n", "")],
    ["an unknown tier", good.replace("haiku", "gpt")],
    ["an extra key", `${good}\nallowed-tools: Bash(*)`],
  ])("%s", (_n, fm) => {
    expect(renderSkill(template(fm), PREAMBLE, "settings")).toMatchObject({ ok: false });
  });
  it("an unknown placeholder", () => {
    expect(
      renderSkill(template(good, "{{PREAMBLE}}\n{{NOPE}}\n"), PREAMBLE, "settings"),
    ).toMatchObject({ ok: false, reason: expect.stringContaining("{{NOPE}}") });
  });
  it("the save step's document heredoc pre-approves save (`E save ... <<'QUOIN_DOC'`, no escaping)", () => {
    const checkpoint = renderAllSkills(ROOT, "settings").find((s) => s.name === "checkpoint")!;
    const fm = RenderedFrontmatterSchema.parse(matter(checkpoint.text, {}).data);
    expect(checkpoint.text).toContain("`E save --json --stdin-json <<'QUOIN_DOC'`");
    expect(checkpoint.text).not.toContain("'\\''");
    expect(fm["allowed-tools"].map((t) => / ([a-z-]+) \*\)$/.exec(t)?.[1])).toEqual([
      "dispatch",
      "pidfile",
      "save",
      "share",
      "restore",
      "defer",
    ]);
  });
  it("/checkpoint --restore runs in the session that continues: no dispatch, no Agent; the pidfile is released last", () => {
    const checkpoint = renderAllSkills(ROOT, "settings").find((s) => s.name === "checkpoint")!;
    const body = matter(checkpoint.text, {}).content;
    const skip = body.indexOf("`--restore`: no dispatch");
    expect(skip).toBeGreaterThan(-1);
    expect(skip).toBeLessThan(body.indexOf("## 0. Model dispatch"));
    expect(body.slice(skip, body.indexOf("\n", skip))).toContain("start at 0c");
    const restore = body.slice(body.indexOf("## 3. Restore"), body.indexOf("## 4. Defer"));
    expect(restore).toContain("no Agent");
    const steps = restore.split("\n").filter((l) => /^\d\. /.test(l));
    expect(steps[0]).toContain("`E restore --json`");
    expect(steps.at(-1)).toContain("release the pidfile");
    expect(restore.indexOf("release the pidfile")).toBe(restore.lastIndexOf("release the pidfile"));
    // large files skimmed; a headless run takes the first option; the whole file only when needed
    expect(steps[1]).toContain("skim the large ones");
    expect(steps[1]).toContain("headless: take the first option");
    expect(steps[2]).toContain("whole `file` only if asked or the brief is cut");
    // the words the skill names are the engine's own when it cuts the brief
    const said = /`show` says `([^`]+)`/.exec(steps[2]!)?.[1];
    expect(said).toBe("brief cut to 8192 bytes");
    const cutShow = fitShow(
      [{ text: "kept", keep: true }, { text: "x".repeat(9000) }],
      {},
      "/c.md",
    );
    expect(cutShow).toEqual([
      "kept",
      `[checkpoint] ${said}: 1 more line(s); read /c.md for the rest`,
    ]);
  });
  it("/checkpoint --share saves first, then runs share without --json and relays its one line", () => {
    const checkpoint = renderAllSkills(ROOT, "settings").find((s) => s.name === "checkpoint")!;
    const body = matter(checkpoint.text, {}).content;
    const save = body.indexOf("## 2. Save");
    const share = body.indexOf("`--share` in the arguments: run `E share` (no `--json`");
    expect(save).toBeGreaterThan(-1);
    expect(share).toBeGreaterThan(body.indexOf("Relay the `report` lines", save));
    expect(share).toBeLessThan(body.indexOf("## 3. Restore"));
    expect(body.slice(share, body.indexOf("\n", share))).toContain("a refusal too");
    expect(matter(checkpoint.text, {}).data["argument-hint"]).toContain("--share");
  });
  it("a body one byte over 6,144 fails; at 6,144 it passes", () => {
    const base = renderSkill(template(good, "{{PREAMBLE}}\n"), PREAMBLE, "settings");
    if (!base.ok) throw new Error(base.reason);
    const pad = (n: number) =>
      renderSkill(template(good, `{{PREAMBLE}}\n${"x".repeat(n)}\n`), PREAMBLE, "settings");
    const room = 6144 - Buffer.byteLength(base.text) - 1;
    expect(pad(room).ok).toBe(true);
    expect(pad(room + 1)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("6144-byte budget"),
    });
  });
  it("a body over the size budget", () => {
    expect(
      renderSkill(
        template(good, `{{PREAMBLE}}\n${"x".repeat(SKILL_SIZE_BUDGET_BYTES)}\n`),
        PREAMBLE,
        "settings",
      ),
    ).toMatchObject({
      ok: false,
      reason: expect.stringContaining("budget"),
    });
  });
  it.each([
    [
      "one fewer (an injected `!` command would abort the skill)",
      (t: string) => t.replace(/^ {2}- "Bash\(node .* dispatch \*\)"\n/m, ""),
    ],
    [
      "one more than the body runs",
      (t: string) =>
        t.replace(
          "allowed-tools:\n",
          "allowed-tools:\n  - \"Bash(node '${CLAUDE_SKILL_DIR}/../../quoin-checkpoint/quoin-checkpoint.cjs' show *)\"\n",
        ),
    ],
    [
      "a bare Bash grant",
      (t: string) => t.replace("allowed-tools:\n", 'allowed-tools:\n  - "Bash(*)"\n'),
    ],
  ])("allowed-tools with %s", (_n, tamper) => {
    const rendered =
      renderAllSkills(ROOT, "settings").find((s) => s.name === "cleanup")?.text ?? "";
    const tampered = tamper(rendered);
    expect(tampered).not.toBe(rendered);
    expect(validateRendered(tampered)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("allowed-tools"),
    });
  });
  it("non-ASCII text", () => {
    expect(
      renderSkill(template(good, "{{PREAMBLE}}\nsave \u2014 now\n"), PREAMBLE, "settings"),
    ).toMatchObject({ ok: false, reason: expect.stringContaining("non-ASCII") });
  });
});
