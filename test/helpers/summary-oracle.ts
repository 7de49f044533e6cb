/**
 * The oracle for what a checkpoint must hold: cut a real transcript just before its newest
 * `compact_boundary`; the model's own summary that follows the boundary names files. Every distinct
 * file-like token of that summary (a path or name ending in a source extension; not a `.jsonl`; a
 * leading `/` dropped) counts as named when some path ends with it at a `/` boundary or equals it.
 * Shared by the digest test and the checkpoint-level tests.
 */

export const SOURCE_EXTENSIONS = [
  "ts",
  "tsx",
  "mts",
  "cts",
  "js",
  "jsx",
  "mjs",
  "cjs",
  "ex",
  "exs",
  "heex",
  "eex",
  "leex",
  "md",
  "json",
  "css",
  "scss",
  "html",
  "py",
  "sh",
  "bash",
  "yml",
  "yaml",
  "toml",
  "rb",
  "rs",
  "go",
  "java",
  "kt",
  "swift",
  "c",
  "h",
  "cpp",
  "hpp",
  "sql",
  "vue",
  "svelte",
  "lua",
  "php",
];

const TOKEN = new RegExp(
  `[A-Za-z0-9_./@~-]*[A-Za-z0-9_-]\\.(?:${SOURCE_EXTENSIONS.join("|")})(?![A-Za-z0-9_])`,
  "g",
);

/** Distinct file-like tokens of a text, leading `/` and `./` dropped. `.jsonl` never matches (the extension must end there). */
export function fileTokens(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(TOKEN)) {
    const token = m[0].replace(/^(\.?\/)+/, "");
    if (token !== "") out.add(token);
  }
  return [...out].sort();
}

/** Named by a path: the path equals the token or ends with it right after a `/`. */
export function namedByPath(token: string, path: string): boolean {
  return path === token || path.endsWith(`/${token}`);
}

export interface Coverage {
  tokens: string[];
  named: string[];
  missed: string[];
  /** named / tokens, 1 when there are no tokens */
  ratio: number;
}

export function coverage(tokens: readonly string[], isNamed: (token: string) => boolean): Coverage {
  const named = tokens.filter(isNamed);
  const missed = tokens.filter((t) => !isNamed(t));
  return {
    tokens: [...tokens],
    named,
    missed,
    ratio: tokens.length ? named.length / tokens.length : 1,
  };
}

/** Coverage of the summary's tokens by a list of paths (the digest's changed + read). */
export function coverageByPaths(tokens: readonly string[], paths: readonly string[]): Coverage {
  return coverage(tokens, (t) => paths.some((p) => namedByPath(t, p)));
}

/**
 * Coverage by a rendered text (a checkpoint): a token is named when it occurs in the text as a whole
 * path or as a path's tail, that is preceded by start, `/` or a character that cannot be in a path,
 * and not followed by a path character.
 */
export function coverageByText(tokens: readonly string[], text: string): Coverage {
  return coverage(tokens, (t) => {
    for (let i = text.indexOf(t); i >= 0; i = text.indexOf(t, i + 1)) {
      const before = i === 0 ? "" : text[i - 1]!;
      const after = text[i + t.length] ?? "";
      if (
        (before === "" || before === "/" || !/[A-Za-z0-9_.@~-]/.test(before)) &&
        !/[A-Za-z0-9_/-]/.test(after)
      )
        return true;
    }
    return false;
  });
}

export interface CompactionCut {
  /** every line before the newest compact_boundary line */
  before: string[];
  /** the text of the isCompactSummary line that follows that boundary */
  summaryText: string;
}

/** Cut a transcript's lines just before its newest compact_boundary; the summary after it is the oracle. */
export function cutAtCompaction(lines: readonly string[]): CompactionCut {
  let boundary = -1;
  lines.forEach((l, i) => {
    if (
      l.includes('"compact_boundary"') &&
      (JSON.parse(l) as { subtype?: string }).subtype === "compact_boundary"
    )
      boundary = i;
  });
  if (boundary < 0) throw new Error("no compact_boundary in these lines");
  for (const l of lines.slice(boundary + 1)) {
    const e = JSON.parse(l) as { isCompactSummary?: boolean; message?: { content?: unknown } };
    if (e.isCompactSummary !== true) continue;
    const c = e.message?.content;
    const summaryText =
      typeof c === "string"
        ? c
        : Array.isArray(c)
          ? c.map((b: { text?: string }) => b.text ?? "").join("\n")
          : "";
    return { before: lines.slice(0, boundary), summaryText };
  }
  throw new Error("no isCompactSummary line after the compact_boundary");
}
