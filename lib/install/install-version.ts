import { createHash } from "node:crypto";
import * as path from "node:path";

// Which build an install holds: the package version and a hash of the files it copied, recorded
// in install-state.json, so an install over another one says which replaced which.

export interface InstalledBuild {
  packageVersion?: string | undefined;
  buildHash?: string | undefined;
}

/** sha256 (first 12 hex digits) over every copied file's install-relative name and text, in name order. */
export function buildHash(files: ReadonlyArray<{ name: string; text: string }>): string {
  const h = createHash("sha256");
  for (const f of [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)))
    h.update(`${f.name}\0${f.text.length}\0${f.text}\0`);
  return h.digest("hex").slice(0, 12);
}

/** What an install records of the files it copies (each named relative to the config folder). */
export function installedBuild(
  packageVersion: string,
  configDir: string,
  copies: ReadonlyArray<{ to: string; text: string }>,
): Required<InstalledBuild> {
  return {
    packageVersion,
    buildHash: buildHash(
      copies.map((c) => ({ name: path.relative(configDir, c.to), text: c.text })),
    ),
  };
}

/** Numeric x.y.z order; a pre-release (x.y.z-rc.1) sorts before its release. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core = "", pre] = v.replace(/^v/, "").split("-", 2);
    return { nums: core.split(".").map((n) => Number(n) || 0), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < Math.max(x.nums.length, y.nums.length); i += 1) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}

/**
 * The "which replaced which" line for an install over an earlier one; null for a first install or
 * the same build again.
 */
export function replacementLine(
  earlier: InstalledBuild | null,
  now: Required<InstalledBuild>,
  dryRun: boolean,
): string | null {
  if (earlier === null) return null;
  const verb = dryRun ? "would replace" : "replaces";
  const was = earlier.packageVersion;
  if (was === undefined)
    return `[quoin] ${now.packageVersion} ${verb} an install from before versions were recorded`;
  const order = compareVersions(now.packageVersion, was);
  if (order > 0) return `[quoin] upgrade: ${now.packageVersion} ${verb} ${was}`;
  if (order < 0) return `[quoin] DOWNGRADE: ${now.packageVersion} ${verb} ${was}, a newer version`;
  if (earlier.buildHash !== undefined && earlier.buildHash !== now.buildHash)
    return `[quoin] ${now.packageVersion} ${verb} a different build of ${was} (build ${earlier.buildHash} -> ${now.buildHash})`;
  return null;
}
