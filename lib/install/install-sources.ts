import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { readTextOrNull } from "../core/file-range.ts";
import {
  ANY_ASCII_BUNDLE,
  ENGINE_BUNDLE,
  GENERATED_SKILL_MARKER,
  HOOK_SPECS,
  hookBundleFile,
  SKILL_NAMES,
  STATUSLINE_BUNDLE,
  type InstallLayout,
} from "./install-layout.ts";

// What an install copies out of the build (dist/ of a clone, or the package's own dist/), read
// whole before anything is written: a missing engine or skill, or a skill of someone else's in
// quoin's place, refuses the install; a missing hook bundle installs the others and says so.

export interface FileCopy {
  from: string;
  to: string;
  text: string;
}

type Sources = { ok: true; copies: FileCopy[]; bundles: string[] } | { ok: false; reason: string };

/**
 * What install copies: the engine and its transliteration tables, the status line, each hook bundle
 * found, and the rendered skills. `statusLine`: the status-line bundle is required.
 */
export function installSources(
  deps: Deps,
  distDir: string,
  layout: InstallLayout,
  statusLine: boolean,
  lines: string[],
): Sources {
  const refuse = (reason: string): Sources => ({ ok: false, reason });
  const copies: FileCopy[] = [];
  const engine = readTextOrNull(deps.fs, path.join(distDir, ENGINE_BUNDLE));
  if (engine === null)
    return refuse(`${path.join(distDir, ENGINE_BUNDLE)} is missing: run npm run build first`);
  copies.push({
    from: path.join(distDir, ENGINE_BUNDLE),
    to: path.join(layout.bundleDir, ENGINE_BUNDLE),
    text: engine,
  });
  const anyAscii = readTextOrNull(deps.fs, path.join(distDir, ANY_ASCII_BUNDLE));
  if (anyAscii !== null)
    copies.push({
      from: path.join(distDir, ANY_ASCII_BUNDLE),
      to: path.join(layout.bundleDir, ANY_ASCII_BUNDLE),
      text: anyAscii,
    });
  else
    lines.push(
      `[quoin] WARNING: ${path.join(distDir, ANY_ASCII_BUNDLE)} is missing: a save writes '?' for non-ASCII free text. Build it (npm run build) and run the installer again.`,
    );
  const statusLineText = readTextOrNull(deps.fs, path.join(distDir, STATUSLINE_BUNDLE));
  if (statusLineText !== null)
    copies.push({
      from: path.join(distDir, STATUSLINE_BUNDLE),
      to: path.join(layout.bundleDir, STATUSLINE_BUNDLE),
      text: statusLineText,
    });
  else if (statusLine)
    return refuse(`${path.join(distDir, STATUSLINE_BUNDLE)} is missing: run npm run build first`);
  const bundles: string[] = [];
  for (const spec of HOOK_SPECS) {
    const from = path.join(distDir, hookBundleFile(spec.bundle));
    const text = readTextOrNull(deps.fs, from);
    if (text === null) {
      lines.push(
        `[quoin] WARNING: ${from} is missing: the ${spec.event} hook is NOT installed. Build it (npm run build) and run the installer again.`,
      );
      continue;
    }
    bundles.push(spec.bundle);
    copies.push({ from, to: path.join(layout.bundleDir, hookBundleFile(spec.bundle)), text });
  }
  // The skills name the engine as '${CLAUDE_SKILL_DIR}/...' (skill-render.ts): any character but `'` is safe there.
  if (layout.skillsDir.includes("'")) {
    return refuse(
      `${layout.skillsDir} contains a single quote, which the skills' engine command cannot hold: install from a folder without one (nothing was changed)`,
    );
  }
  for (const name of SKILL_NAMES) {
    const from = path.join(distDir, "skills", name, "SKILL.md");
    const text = readTextOrNull(deps.fs, from);
    if (text === null)
      return refuse(`${from} is missing: run npm run gen-skills (or npm run build) first`);
    const to = path.join(layout.skillsDir, name, "SKILL.md");
    const existing = readTextOrNull(deps.fs, to);
    if (existing !== null && !existing.includes(GENERATED_SKILL_MARKER)) {
      return refuse(`${to} exists and is not quoin's: move it away first (nothing was changed)`);
    }
    copies.push({ from, to, text });
  }
  return { ok: true, copies, bundles };
}
