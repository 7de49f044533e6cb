import { projectHash } from "../core/project-hash.ts";

// What leaves the machine when a checkpoint is shared. A checkpoint holds paths and short lines,
// not content, but those lines are the person's own words and tool output: an absolute path names
// their home and user, Claude Code's transcript folder name encodes the same path, and a pasted
// command can carry a key. The rules below follow gitleaks' (github.com/gitleaks/gitleaks,
// config/gitleaks.toml) for the prefixed tokens, widened where a checkpoint line may cut a token.

export const REDACTED = "[redacted]";

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

/** One rule: a name for tests and reports, a pattern, and what replaces a match. */
interface SecretRule {
  name: string;
  pattern: RegExp;
  replace: string | ((match: string, ...groups: string[]) => string);
}

/** Prefixed tokens: the whole match goes. */
const TOKEN_RULES: readonly SecretRule[] = [
  {
    name: "private-key",
    pattern:
      /-----BEGIN[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?(-----END[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|$)/g,
    replace: REDACTED,
  },
  { name: "anthropic", pattern: /\bsk-ant-[A-Za-z0-9_-]{8,}/g, replace: REDACTED },
  { name: "openai", pattern: /\bsk-[A-Za-z0-9_-]{16,}/g, replace: REDACTED },
  { name: "github-pat", pattern: /\bgithub_pat_[A-Za-z0-9_]{16,}/g, replace: REDACTED },
  { name: "github-token", pattern: /\bgh[pousr]_[A-Za-z0-9]{16,}/g, replace: REDACTED },
  { name: "slack", pattern: /\bxox[abposr]-[A-Za-z0-9-]{8,}/g, replace: REDACTED },
  {
    name: "aws-access-key",
    pattern: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}\b/g,
    replace: REDACTED,
  },
  { name: "google-api-key", pattern: /\bAIza[0-9A-Za-z_-]{30,}/g, replace: REDACTED },
  { name: "gitlab-pat", pattern: /\bglpat-[0-9A-Za-z_-]{16,}/g, replace: REDACTED },
  { name: "npm-token", pattern: /\bnpm_[A-Za-z0-9]{30,}/g, replace: REDACTED },
  {
    name: "jwt",
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    replace: REDACTED,
  },
  {
    name: "bearer",
    pattern: /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{16,}/g,
    replace: (_m, scheme) => `${scheme} ${REDACTED}`,
  },
  {
    name: "url-credentials",
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/)([^\s:@/]+):([^\s@/]+)@/gi,
    replace: (_m, scheme, user) => `${scheme}${user}:${REDACTED}@`,
  },
];

/** `password=...`, `token: ...`: the name stays (it says what was there), the value goes. */
const ASSIGNMENT_RULE: SecretRule = {
  name: "assignment",
  pattern:
    /\b([A-Za-z0-9_.-]*(?:password|passwd|pwd|passphrase|token|secret|api[_-]?key|access[_-]?key|auth[_-]?key|private[_-]?key|client[_-]?secret)(?![a-z])[A-Za-z0-9_.-]*)(["']?\s*(?:=|:=|:|=>)\s*)("[^"\n]*"|'[^'\n]*'|[^\s"'&;,)]+)/gi,
  replace: (_m, name, sep, value) =>
    value === REDACTED || /^["']\[redacted\]["']$/.test(value)
      ? `${name}${sep}${value}`
      : `${name}${sep}${REDACTED}`,
};

/** A long base64 or hex run right after the word key or secret (`key AbC...`, `secret: 9f3a...`). */
const KEYWORD_RUN_RULE: SecretRule = {
  name: "keyword-run",
  pattern:
    /\b([A-Za-z0-9_-]*(?:key|secret)s?)(\W{1,4})([A-Za-z0-9+/_-]{20,}={0,2})(?![A-Za-z0-9+/=])/gi,
  replace: (m, word, sep, run) => (looksRandom(run) ? `${word}${sep}${REDACTED}` : m),
};

/** A run of letters and digits mixed as a key is (not a word, not a path, not a kebab-case name). */
function looksRandom(run: string): boolean {
  if (/^[0-9a-f]{32,}$/i.test(run)) return true;
  const digits = (run.match(/[0-9]/g) ?? []).length;
  const upper = (run.match(/[A-Z]/g) ?? []).length;
  const lower = (run.match(/[a-z]/g) ?? []).length;
  // A path (src/components/Header2.tsx) has a plain lowercase folder or word between slashes.
  if (run.includes("/") && run.split("/").some((seg) => /^[a-z]{3,}$/.test(seg))) return false;
  return digits > 0 && upper > 0 && lower > 0 && !/[-_]{1}[a-z]+[-_]/.test(run);
}

export const SECRET_RULE_NAMES: readonly string[] = [
  ...TOKEN_RULES.map((r) => r.name),
  ASSIGNMENT_RULE.name,
  KEYWORD_RUN_RULE.name,
];

function applyRule(text: string, rule: SecretRule): string {
  return typeof rule.replace === "string"
    ? text.replace(rule.pattern, rule.replace)
    : text.replace(rule.pattern, rule.replace as (m: string, ...g: string[]) => string);
}

/** Every secret-looking run replaced by [redacted]. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const rule of TOKEN_RULES) out = applyRule(out, rule);
  out = applyRule(out, ASSIGNMENT_RULE);
  return applyRule(out, KEYWORD_RUN_RULE);
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
  return out;
}

/** The whole checkpoint as it may leave the machine. */
export function redactForSharing(text: string, where: RedactWhere): string {
  return redactSecrets(redactPaths(text, where));
}
