import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { readTextOrNull } from "../core/file-range.ts";
import {
  ANY_ASCII_BUNDLE,
  commandTarget,
  ENGINE_BUNDLE,
  GENERATED_SKILL_MARKER,
  HOOK_SPECS,
  hookBundleFile,
  SKILL_NAMES,
  type InstallLayout,
} from "./install-layout.ts";
import { ownedHookCommands, ownedHookMatchers } from "./settings-owned.ts";
import { setupFix, timed, type DoctorCheck } from "./doctor-check.ts";

// doctor's rows for one install: its engine and tables, its skills, each hook's entry in
// settings.json (its matcher, its file, whether it starts and how fast).

export function layoutChecks(deps: Deps, layout: InstallLayout, slowMs: number): DoctorCheck[] {
  const where = `${layout.scope} install (${layout.configDir})`;
  const setup = setupFix(deps, layout);
  const out = [
    ...bundleChecks(deps, layout, where, setup),
    ...skillChecks(deps, layout, where, setup),
  ];
  const settings = readTextOrNull(deps.fs, layout.settingsFile);
  const owned = settings === null ? {} : ownedHookCommands(settings);
  if ("reason" in owned) {
    out.push({
      name: `${where}: settings.json`,
      ok: false,
      detail: String(owned.reason),
      fix: `fix the JSON in ${layout.settingsFile} by hand, then ${setup}`,
    });
    return out;
  }
  return [
    ...out,
    ...hookChecks(deps, layout, where, owned as Record<string, string[]>, slowMs, setup),
    ...matcherChecks(settings ?? "", where, setup),
  ];
}

/** An install older than this one keeps its old matchers (SessionStart without fork) until a reinstall. */
function matcherChecks(settings: string, where: string, setup: string): DoctorCheck[] {
  const found = ownedHookMatchers(settings);
  return HOOK_SPECS.flatMap((spec): DoctorCheck[] => {
    const bad = (found[spec.event] ?? []).filter((m) => m !== spec.matcher);
    if (!bad.length) return [];
    const stale = bad[0];
    return [
      {
        name: `${where}: ${spec.event} matcher`,
        ok: false,
        detail: `is ${stale === undefined ? "absent" : `"${stale}"`}; this version installs "${spec.matcher ?? "(none)"}"${spec.event === "SessionStart" ? " (without fork a forked session gets no banner)" : ""}`,
        fix: setup,
      },
    ];
  });
}

function bundleChecks(
  deps: Deps,
  layout: InstallLayout,
  where: string,
  setup: string,
): DoctorCheck[] {
  const out: DoctorCheck[] = [];
  const engine = path.join(layout.bundleDir, ENGINE_BUNDLE);
  out.push(
    deps.fs.existsSync(engine)
      ? { name: `${where}: engine`, ok: true, detail: engine }
      : { name: `${where}: engine`, ok: false, detail: `${engine} is missing`, fix: setup },
  );
  // A warning only: without the tables the engine still saves, with `?` for each non-ASCII character.
  const anyAscii = path.join(layout.bundleDir, ANY_ASCII_BUNDLE);
  if (deps.fs.existsSync(engine)) {
    out.push(
      deps.fs.existsSync(anyAscii)
        ? { name: `${where}: transliteration tables`, ok: true, detail: anyAscii }
        : {
            name: `${where}: transliteration tables`,
            ok: true,
            warn: true,
            detail: `${anyAscii} is missing: transliteration falls back to '?' (a checkpoint's free text keeps ASCII only)`,
            fix: `reinstall: ${setup}`,
          },
    );
  }
  return out;
}

function skillChecks(
  deps: Deps,
  layout: InstallLayout,
  where: string,
  setup: string,
): DoctorCheck[] {
  const out: DoctorCheck[] = [];
  for (const skill of SKILL_NAMES) {
    const file = path.join(layout.skillsDir, skill, "SKILL.md");
    const name = `${where}: /${skill} skill`;
    const text = readTextOrNull(deps.fs, file);
    if (text === null) out.push({ name, ok: false, detail: `${file} is missing`, fix: setup });
    else if (!text.includes(GENERATED_SKILL_MARKER)) {
      out.push({
        name,
        ok: false,
        detail: `${file} is not quoin's (another /${skill} skill is in its place)`,
        fix: `move that folder away, then ${setup}`,
      });
    } else out.push({ name, ok: true, detail: file });
  }
  return out;
}

function hookChecks(
  deps: Deps,
  layout: InstallLayout,
  where: string,
  owned: Record<string, string[]>,
  slowMs: number,
  setup: string,
): DoctorCheck[] {
  const out: DoctorCheck[] = [];
  const root = path.dirname(layout.configDir);
  for (const spec of HOOK_SPECS) {
    const bundle = path.join(layout.bundleDir, hookBundleFile(spec.bundle));
    const commands = owned[spec.event] ?? [];
    const name = `${where}: ${spec.event} hook`;
    if (!commands.length) {
      out.push({
        name,
        ok: false,
        detail: `no quoin entry under hooks.${spec.event} in ${layout.settingsFile}`,
        // a clone builds its bundles itself; a package's installer copies them
        fix:
          deps.fs.existsSync(bundle) || !/ run setup\b|npm run setup/.test(setup)
            ? setup
            : `build the ${spec.bundle} bundle (npm run build), then ${setup}`,
      });
      continue;
    }
    const target = commandTarget(commands[0] ?? "")?.replace("${CLAUDE_PROJECT_DIR}", root);
    if (!target || !deps.fs.existsSync(target)) {
      out.push({
        name,
        ok: false,
        detail: `settings point at ${target ?? commands[0]}, which is missing`,
        fix: setup,
      });
      continue;
    }
    const t = timed(deps, "node", [target], "{}");
    if (t.status !== 0)
      out.push({
        name,
        ok: false,
        detail: `${target} exited ${t.status} on empty input (hooks must fail open with 0)`,
        fix: setup,
      });
    else if (t.ms > slowMs)
      out.push({
        name,
        ok: false,
        detail: `starts in ${t.ms} ms (over ${slowMs} ms)`,
        fix: "check the disk and antivirus; `npm run bench` compares it with `node -e 0`",
      });
    else out.push({ name, ok: true, detail: `starts in ${t.ms} ms` });
  }
  return out;
}
