import { projectHash } from "../core/project-hash.ts";
import { redactSecrets } from "../core/secret-redact.ts";

// What leaves the machine when a checkpoint is shared. A checkpoint holds paths and short lines,
// not content, but those lines are the person's own words and tool output: an absolute path names
// their home and user, Claude Code's transcript folder name encodes the same path, and a pasted
// command can carry a key. The secret rules are lib/core/secret-redact.ts's (PreCompact's
// steering text uses them too); the paths are this file's: the project's become relative, the
// person's home and any other home folder (/home/<name>, /Users/<name>) become `~`.

export interface RedactWhere {
  /** the project root: paths inside it become relative */
  root: string;
  /** $HOME: paths under it are written with `~` */
  home: string;
  /** launch folders whose transcript-folder name (projectHash) must not leave; root is always one */
  launchDirs?: readonly string[];
  /** other spellings of root and home (their real paths, when a symlink leads there) */
  rootAliases?: readonly string[];
  homeAliases?: readonly string[];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** `dir` and `dir/...` wherever a path may start (not inside a longer name), rewritten by `to`. */
function rewritePrefix(text: string, dir: string, to: (rest: string) => string): string {
  const d = dir.replace(/\/+$/, "");
  if (d === "" || d === "/") return text;
  const re = new RegExp(
    `(^|[^A-Za-z0-9_.~/-])${escapeRegExp(d)}(?=$|[/\\s"'\`)\\]},:;])(/*)`,
    "gm",
  );
  return text.replace(re, (_m, lead: string, slash: string) => `${lead}${to(slash)}`);
}

/** Paths made relative to the project, then `~` for $HOME, then the transcript-folder names dropped. */
export function redactPaths(text: string, where: RedactWhere): string {
  let out = text;
  const hashes = new Set(
    [where.root, ...(where.launchDirs ?? []), ...(where.rootAliases ?? [])].map((d) =>
      projectHash(d.replace(/\/+$/, "")),
    ),
  );
  // The Claude Code transcript folder (~/.claude/projects/<hash>/) encodes the absolute launch path.
  out = out.replace(/(\.claude\/projects\/)[^/\s]+/g, "$1[project]");
  for (const h of [...hashes].sort((a, b) => b.length - a.length))
    if (h.replace(/-/g, "") !== "") out = out.split(h).join("[project]");
  // Longest first: the root usually sits under $HOME.
  const toRoot = (slash: string) => (slash ? "" : ".");
  const toHome = (slash: string) => (slash ? "~/" : "~");
  const dirs = [
    ...[where.root, ...(where.rootAliases ?? [])].map((dir) => ({ dir, to: toRoot })),
    ...[where.home, ...(where.homeAliases ?? [])].map((dir) => ({ dir, to: toHome })),
  ].sort((a, b) => b.dir.length - a.dir.length);
  for (const { dir, to } of dirs) out = rewritePrefix(out, dir, to);
  // Any other home folder names a user too (a teammate's path in a log line, a CI's /Users/runner).
  return out.replace(OTHER_HOME, (_m, lead: string, rest: string) => `${lead}~${rest}`);
}

/** `/home/<name>` or `/Users/<name>`, then `/...` or the end of the path, where a path may start. */
const OTHER_HOME =
  /(^|[^A-Za-z0-9_.~/-])\/(?:home|Users)\/[^/\s"'`)\]},:;]+(?=$|[/\s"'`)\]},:;])(\/?)/gm;

/** The whole checkpoint as it may leave the machine. */
export function redactForSharing(text: string, where: RedactWhere): string {
  return redactSecrets(redactPaths(text, where));
}
