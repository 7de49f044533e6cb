// Secrets taken out of text that leaves the machine (a shared checkpoint) or reaches a model as
// instructions (PreCompact's steering text). A checkpoint line is a person's own words and tool
// output: a failing `curl -u`, `mysql -p`, `git push https://user:pw@host` is exactly what a
// normal session's failures hold. The prefixed tokens follow gitleaks' rules
// (github.com/gitleaks/gitleaks, config/gitleaks.toml), widened where a line may cut a token;
// the command-line and URL forms are this tool's own. A rule keeps what says what was there (the
// variable's name, the header's scheme, the URL's user and host) and drops the value.

export const REDACTED = "[redacted]";

/** One rule: a name for tests and reports, a pattern, and what replaces a match. */
interface SecretRule {
  name: string;
  pattern: RegExp;
  replace: string | ((match: string, ...groups: string[]) => string);
}

const isRedacted = (v: string) => v === REDACTED || /^["']\[redacted\]["']$/.test(v);

/** A quoted value, or a run up to whitespace, a quote or a shell separator. */
const VALUE = String.raw`("[^"\n]*"|'[^'\n]*'|[^\s"'&;,)|]+)`;

/** Prefixed tokens and fixed shapes: the whole match goes. */
const TOKEN_RULES: readonly SecretRule[] = [
  {
    name: "private-key",
    pattern:
      /-----BEGIN[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?(-----END[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|$)/g,
    replace: REDACTED,
  },
  { name: "anthropic", pattern: /\bsk-ant-[A-Za-z0-9_-]{8,}/g, replace: REDACTED },
  { name: "openai", pattern: /\bsk-[A-Za-z0-9_-]{16,}/g, replace: REDACTED },
  { name: "stripe", pattern: /\b[rs]k_(?:live|test|prod)_[A-Za-z0-9]{10,}/g, replace: REDACTED },
  { name: "sendgrid", pattern: /\bSG\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, replace: REDACTED },
  { name: "twilio", pattern: /\bSK[0-9a-fA-F]{32}\b/g, replace: REDACTED },
  {
    name: "slack-webhook",
    pattern:
      /\b(?:https?:\/\/)?hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9+/_-]{20,}/g,
    replace: REDACTED,
  },
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
    // htpasswd and crypt(3) hashes: apr1 (MD5), bcrypt, SHA-256/512 crypt, {SHA}
    name: "password-hash",
    pattern:
      /\$apr1\$[./A-Za-z0-9]{1,8}\$[./A-Za-z0-9]{22}|\$2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}|\$[56]\$(?:rounds=\d+\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{43,86}|\{SHA\}[A-Za-z0-9+/]{27}=/g,
    replace: REDACTED,
  },
];

/** Headers, URLs and command-line flags: the part that says what it was stays. */
const SHAPE_RULES: readonly SecretRule[] = [
  {
    // every scheme (Bearer, Basic, token, Digest, ApiKey, none); a word of prose is not a credential
    name: "authorization-header",
    pattern:
      /\b((?:Proxy-)?Authorization\s*[:=]\s*)(?:([A-Za-z][A-Za-z0-9_-]*)\s+)?((?:[A-Za-z]+="[^"\n]*"\s*,?\s*)+|[^\s'"]{6,})/gi,
    replace: (m, lead, scheme, cred) =>
      /^[a-z]+$/.test(cred) || isRedacted(cred)
        ? m
        : `${lead}${scheme ? `${scheme} ` : ""}${REDACTED}`,
  },
  {
    name: "bearer",
    pattern: /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{16,}/g,
    replace: (_m, scheme) => `${scheme} ${REDACTED}`,
  },
  {
    // the password runs to the last `@` before the host (it may hold `/` and `@`); the user may be
    // empty (`redis://:pw@cache`); `host:8080/@x` is a port, not a password
    name: "url-credentials",
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/)([^\s:@/'"]*):(?!\d+(?:\/|$))([^\s'"]*)@(?=[A-Za-z0-9[])/gi,
    replace: (m, scheme, user, pw) => (isRedacted(pw) ? m : `${scheme}${user}:${REDACTED}@`),
  },
  {
    // `-p<pw>` (no space) means a password only to the MySQL clients; `ssh -p 22`, `cp -pr` do not
    name: "mysql-password-flag",
    pattern: /\b(mysql|mariadb|mysqldump|mysqladmin|mysqlimport)\b([^\n|;&]*?\s)-p(?=[^\s-])(\S+)/g,
    replace: (m, cmd, mid, pw) => (isRedacted(pw) ? m : `${cmd}${mid}-p${REDACTED}`),
  },
  {
    name: "sshpass",
    pattern: /\b(sshpass\s+(?:-[A-Za-z]\s+\S+\s+)*-p\s*)(\S+)/g,
    replace: (m, lead, pw) => (isRedacted(pw) ? m : `${lead}${REDACTED}`),
  },
  {
    // `curl -u user:pw`, `--user user:pw`; `docker -u 1000:1000` (uid:gid) is not a password
    name: "user-password-flag",
    pattern: /(\s(?:-u\s*|--user[= ]\s*))(["']?)([^\s:'"/]+):(?!\/\/)([^\s'"]+)\2/g,
    replace: (m, flag, q, user, pw) =>
      isRedacted(pw) || (/^\d+$/.test(user) && /^\d+$/.test(pw))
        ? m
        : `${flag}${q}${user}:${REDACTED}${q}`,
  },
  {
    name: "password-flag",
    pattern: new RegExp(String.raw`(--pass(?:word|wd)?(?:=|\s+)|-pass\s+pass:)(?!-)${VALUE}`, "g"),
    replace: (m, flag, pw) => (isRedacted(pw) ? m : `${flag}${REDACTED}`),
  },
];

/**
 * `NAME=value` where the name says what the value is: any `*PASS*` name (DB_PASS, PGPASSWORD;
 * not BYPASS), `*_TOKEN`, `*_SECRET*`, `*_KEY` (a `PRIMARY_KEY=id`, a lowercase word with no digit,
 * names a column, not a key). A `$VAR` reference is not a secret.
 */
const ENV_RULE: SecretRule = {
  name: "env-assignment",
  pattern: new RegExp(String.raw`\b([A-Za-z][A-Za-z0-9_]*)(\s*:?=\s*)${VALUE}`, "g"),
  replace: (m, name, sep, value) => {
    const n = name.toUpperCase();
    const pass = /(?:^|_)PASS|PASSW(?:OR)?D|PASSPHRASE/.test(n);
    const tokenish = /(?:^|_)(?:TOKEN|SECRET)S?(?:_|$)/.test(n);
    const keyish = /_KEYS?(?:_|$)/.test(n) || n === "KEY";
    if (!(pass || tokenish || keyish) || isRedacted(value) || /^["']?\$/.test(value)) return m;
    if (!pass && !tokenish && /^[a-z][a-z_.]{0,31}$/.test(value)) return m;
    return `${name}${sep}${REDACTED}`;
  },
};

/** `password=...`, `token: ...`: the name stays (it says what was there), the value goes. */
const ASSIGNMENT_RULE: SecretRule = {
  name: "assignment",
  pattern:
    /\b([A-Za-z0-9_.-]*(?:password|passwd|pwd|passphrase|token|secret|api[_-]?key|access[_-]?key|auth[_-]?key|private[_-]?key|client[_-]?secret)(?![a-z])[A-Za-z0-9_.-]*)(["']?\s*(?:=|:=|:|=>)\s*)("[^"\n]*"|'[^'\n]*'|[^\s"'&;,)]+)/gi,
  replace: (_m, name, sep, value) =>
    isRedacted(value) ? `${name}${sep}${value}` : `${name}${sep}${REDACTED}`,
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

const RULES: readonly SecretRule[] = [
  ...TOKEN_RULES,
  ...SHAPE_RULES,
  ENV_RULE,
  ASSIGNMENT_RULE,
  KEYWORD_RUN_RULE,
];

export const SECRET_RULE_NAMES: readonly string[] = RULES.map((r) => r.name);

function applyRule(text: string, rule: SecretRule): string {
  return typeof rule.replace === "string"
    ? text.replace(rule.pattern, rule.replace)
    : text.replace(rule.pattern, rule.replace as (m: string, ...g: string[]) => string);
}

/** Every secret-looking run replaced by [redacted]; what names it (a variable, a scheme, a user) stays. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const rule of RULES) out = applyRule(out, rule);
  return out;
}
