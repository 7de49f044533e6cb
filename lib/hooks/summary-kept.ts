import type { ParsedDigest } from "../store/checkpoint-digest.ts";
import type { KeptReport } from "../notes/reentry-note.ts";

// What the model's own compaction summary already kept of a checkpoint's
// digest, so the re-entry note carries only the rest. A path counts as kept when the summary
// writes it whole (the project-relative path as the digest has it, or any longer path ending in
// it after a `/`); a bare file name does not: the summary then lost where the file is. A request
// or todo counts as kept when the start of its text (48 characters, case and punctuation aside)
// is in the summary, a short one only quoted whole: Claude Code's summary lists the user's
// messages nearly word for word, in quotes.

const PATH_CHAR = /[A-Za-z0-9_.@~/-]/;
const TEXT_PREFIX = 48;

/** The summary holds `p` as a whole path: not preceded by a path character other than `/`, not followed by one (a sentence's final `.` aside). */
export function pathKept(summary: string, p: string): boolean {
  if (!p) return false;
  for (let i = summary.indexOf(p); i >= 0; i = summary.indexOf(p, i + 1)) {
    const before = i === 0 ? "" : summary[i - 1]!;
    const after = summary.slice(i + p.length, i + p.length + 2);
    const beforeOk = before === "" || before === "/" || !PATH_CHAR.test(before);
    const afterOk = after === "" || !PATH_CHAR.test(after[0]!) || /^\.(\s|$)/.test(after);
    if (beforeOk && afterOk) return true;
  }
  return false;
}

const normal = (t: string) =>
  t
    .replace(/\.\.\.$/, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

/** Shorter texts ("continue") count only when the summary quotes them whole. */
const SHORT_TEXT = 16;

/**
 * The summary holds the start of `text` (normalized: lower case, punctuation and spacing as single
 * spaces); a short text must appear quoted (`"continue"`), as the summary lists the user's messages.
 */
function textKept(summary: string, normalSummary: string, text: string): boolean {
  const t = normal(text).slice(0, TEXT_PREFIX).trim();
  if (t === "") return false;
  if (t.length >= SHORT_TEXT) return normalSummary.includes(t);
  const quoted = `"${text.trim().toLowerCase()}"`;
  return summary.toLowerCase().includes(quoted);
}

/** Split a checkpoint's digest into what the summary kept and what it dropped. */
export function keptBySummary(summary: string, d: ParsedDigest): KeptReport {
  const paths = [...new Set([...d.changed, ...d.read].map((f) => f.path))];
  const ns = normal(summary);
  const requests = [...new Set(d.requests.map((r) => r.text))];
  const todos = d.todos ?? [];
  return {
    paths: { all: paths, dropped: paths.filter((p) => !pathKept(summary, p)) },
    requests: { all: requests, dropped: requests.filter((r) => !textKept(summary, ns, r)) },
    todos: { all: todos, dropped: todos.filter((t) => !textKept(summary, ns, t.content)) },
  };
}
