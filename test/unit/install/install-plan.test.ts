import { describe, expect, it } from "vitest";
import { runInstall } from "../../../lib/install/installer.ts";
import { memDeps, snapshot } from "../../helpers/mem-install-deps.ts";
import { BUILT, installOptions as opts } from "../../helpers/install-world.ts";

// The installer computes one plan; --dry-run prints it and an install applies it. So the dry
// run's step lines, said as done, are the real run's step lines, in the same order.

const B = "/home/u/.claude/quoin-checkpoint";
const SETTINGS = '{\n  "model": "opus"\n}\n';

/** The step lines of a run, said as done: no header, no settings diff, no backup or closing line. */
const stepLines = (lines: string[]) =>
  lines
    .slice(1)
    .filter((l) => l.startsWith("[quoin] "))
    .filter((l) => !/backup of the previous settings|check it with|uninstalled; removed/.test(l))
    .map((l) => l.replace("[quoin] would ", "[quoin] "));

describe("installer: one plan, printed by --dry-run and performed by an install", () => {
  it.each([
    ["install over an older .mjs install", false],
    ["uninstall", true],
  ])("%s: the dry run names every step the real run takes, in order", (_what, uninstall) => {
    const { deps, vol } = memDeps({
      ...BUILT,
      "/home/u/.claude/settings.json": SETTINGS,
      [`${B}/quoin-checkpoint.mjs`]: "// old engine\n",
    });
    if (uninstall) runInstall(deps, opts());
    const before = snapshot(vol, "/");
    const dry = runInstall(deps, opts({ uninstall, dryRun: true }));
    expect(snapshot(vol, "/")).toEqual(before);
    const real = runInstall(deps, opts({ uninstall }));
    if (!dry.ok || !real.ok) throw new Error("refused");
    expect(stepLines(dry.lines)).toEqual(stepLines(real.lines));
    expect(dry.changed && real.changed).toBe(true);
    const moved = uninstall ? `${B}` : `${B}/quoin-checkpoint.mjs`;
    expect(real.lines).toContain(
      `[quoin] move ${moved}${uninstall ? "" : " (replaced by its .cjs bundle)"} to /home/u/.claude/quoin-checkpoint-backups`,
    );
    expect(vol.existsSync(moved)).toBe(false);
    // Applied: the plan has nothing left to do.
    const again = runInstall(deps, opts({ uninstall, dryRun: true }));
    expect(again).toMatchObject({ ok: true, changed: false });
  });
});
