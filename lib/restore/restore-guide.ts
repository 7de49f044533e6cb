import type { ResumeSession } from "./resume-session.ts";
import type { RestoreOutcome, Restored } from "./restore-run.ts";

// The per-case wording of restore, in the engine's answer rather than in the skill: `next` says
// what the model does with this answer (ask, run, read, restate), so the SKILL.md stays small.

const MARK: Record<string, string> = { completed: "[x]", in_progress: "[>]", pending: "[ ]" };

/** The brief's bounds: every list is cut with a count of what was cut; the checkpoint file holds the rest. */
export const BRIEF_LIMITS = {
  requestChars: 300,
  lastWords: 5,
  lastWordChars: 300,
  todos: 12,
  todoChars: 120,
  changed: 8,
  read: 5,
  failures: 3,
  uncommitted: 8,
  items: 8,
  itemChars: 240,
  inProgressChars: 600,
} as const;

/** One line, at most `max` characters. */
export function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 3)).trimEnd()}...`;
}

/** The first `max` of a list, then `+N more <what>` when some were cut. */
function bounded<T>(
  list: readonly T[],
  max: number,
  what: string,
  show: (t: T) => string,
): string[] {
  const out = list.slice(0, max).map(show);
  if (list.length > max) out.push(`  +${list.length - max} more ${what}`);
  return out;
}

const files = (list: readonly { path: string; count: number }[], max: number) =>
  `${list
    .slice(0, max)
    .map((f) => `${cut(f.path, 200)}${f.count > 1 ? ` (x${f.count})` : ""}`)
    .join(", ")}${list.length > max ? `, +${list.length - max} more` : ""}`;

const L = BRIEF_LIMITS;

/** Where the session was: requests, the model's last words, uncommitted files, todos, working set, failures. */
export function whereLines(x: ResumeSession): string[] {
  const lines: string[] = [];
  if (x.firstRequest && x.firstRequest !== x.newestRequest)
    lines.push(`First request: ${cut(x.firstRequest, L.requestChars)}`);
  if (x.newestRequest) lines.push(`Newest request: ${cut(x.newestRequest, L.requestChars)}`);
  if (x.progress.length) {
    lines.push("Progress the model reported (newest last):");
    for (const w of x.progress.slice(-L.lastWords))
      lines.push(`  - ${w.at ? `${w.at} ` : ""}${cut(w.text, L.lastWordChars)}`);
  }
  if (x.lastWords.length) {
    lines.push("Last words of the model (newest last):");
    const words = x.lastWords.slice(-L.lastWords);
    if (x.lastWords.length > words.length)
      lines.push(`  (+${x.lastWords.length - words.length} older)`);
    for (const w of words)
      lines.push(`  - ${w.at ? `${w.at} ` : ""}${cut(w.text, L.lastWordChars)}`);
  }
  if (x.uncommitted.length) {
    lines.push("Uncommitted at the save (changed after the session's last commit):");
    lines.push(
      ...bounded(
        x.uncommitted,
        L.uncommitted,
        "files",
        (u) => `  ${cut(u.path, 200)}${u.kind ? ` (${u.kind})` : ""}`,
      ),
    );
  }
  if (x.todos) {
    lines.push(`Todos: ${x.todos.length ? "" : "(empty list)"}`.trimEnd());
    lines.push(
      ...bounded(
        x.todos,
        L.todos,
        "todos",
        (t) => `  ${MARK[t.status] ?? "[ ]"} ${cut(t.content, L.todoChars)}`,
      ),
    );
  }
  if (x.changed.length) lines.push(`Changed files (newest first): ${files(x.changed, L.changed)}`);
  if (x.read.length) lines.push(`Read files (newest first): ${files(x.read, L.read)}`);
  for (const o of x.omitted.slice(0, 4)) lines.push(`  (${cut(o, 80)} in the checkpoint's count)`);
  lines.push(
    ...bounded(
      x.failures,
      L.failures,
      "failures",
      (f) => `Failed: \`${cut(f.command, 120)}\`: ${cut(f.error, 160)}`,
    ),
  );
  return lines;
}

/** The model's own notes (a curated checkpoint): done, in progress, next up, decisions. */
export function notesLines(x: ResumeSession): string[] {
  const lines: string[] = [];
  const item = (t: string) => cut(t, L.itemChars);
  if (x.done.length) {
    lines.push("Done:");
    lines.push(...bounded(x.done, L.items, "done items", (d) => `  - ${item(d)}`));
  }
  if (x.inProgress) lines.push(`In progress: ${cut(x.inProgress, L.inProgressChars)}`);
  lines.push(
    ...bounded(
      x.nextUp,
      L.items,
      "next-up items",
      (n) => `Next up: ${item(n.item)} (prerequisites met? ${n.prerequisitesMet ? "yes" : "no"})`,
    ),
  );
  lines.push(...bounded(x.decisions, L.items, "decisions", (d) => `Decision: ${item(d)}`));
  return lines;
}

/** The digest's footnotes: where the compaction summary is, a history cut short. */
export function digestNotes(x: ResumeSession): string[] {
  const lines: string[] = [];
  if (x.compactionSummary)
    lines.push(
      `Compaction summary: line ${x.compactionSummary.uuid} of ${x.compactionSummary.transcript}`,
    );
  if (x.historyCutShort)
    lines.push(
      "(the transcript digest was cut short by its read budget: older history is not listed)",
    );
  return lines;
}

const quote = (t: string) => `"${cut(t, 80).replace(/"/g, "'")}"`;

/** The options of the closing question of a finished restore: carry on, look at the drift, read more, other. */
function carryOnOptions(r: Restored): string {
  const s = r.summary;
  const x = s?.session;
  const first =
    x?.nextUp[0]?.item ??
    x?.inProgress ??
    x?.todos?.find((t) => t.status !== "completed")?.content ??
    x?.newestRequest;
  const drift = (r.reconcile?.gitDrift.length ?? 0) + (r.reconcile?.drift.length ?? 0);
  const options = [
    first ? quote(`Carry on: ${first}`) : quote("Carry on where the session stopped"),
    ...(drift ? [quote(`Check the ${drift} drift line(s) first`)] : []),
    ...(s?.source === "checkpoint" ? [quote("Read the whole checkpoint file first")] : []),
    quote("Something else"),
  ];
  return options.join(" / ");
}

function restoredNext(r: Restored): string[] {
  if (r.corrupt) return ["Show the raw content and the hint above, then stop."];
  const rerun = `E restore --json ${r.rerun.join(" ")}`.trimEnd();
  if (r.needs.includes("same-session")) {
    return [
      `AskUserQuestion "Same-session restore detected": "Proceed in this session (not recommended)" (run \`${rerun} --proceed\`) / "Show me how to start a fresh session" (say: open a new session and run /checkpoint --restore there; stop).`,
    ];
  }
  if (r.needs.includes("replay")) {
    const c = r.prompts.case === "C";
    return [
      `AskUserQuestion "Replay which blocked prompts?" (the menu in pendingPrompts.menu): "All" (\`--replay all\`; skips non-replayable) / "None" (\`--replay none\`)${c ? ' / "Delete them" (`--replay delete`)' : ""} / "Some or edit one" (the user types numbers \`1,3\` or \`edit N\`); then run \`${rerun} --replay <answer>\`.`,
    ];
  }
  const s = r.summary;
  const steps: string[] = [];
  if (s?.reread.length) steps.push(`Read each file in \`reread\` now (${s.reread.length}).`);
  if (r.replay?.replay.length)
    steps.push(
      "Submit each replay.prompts text as if the user typed it (edit N: show it in full, use the edited text).",
    );
  const restate = [
    s?.session.todos ? "the todos" : "",
    s?.session.lastWords.length ? "the last words" : "",
    s?.session.newestRequest ? "the newest request" : "",
  ]
    .filter(Boolean)
    .join(", ");
  steps.push(
    `${restate ? `Restate ${restate.replace(/, ([^,]*)$/, " and $1")}, then ask` : "Ask"} the user what to do next: AskUserQuestion "What next?": ${carryOnOptions(r)}.`,
  );
  return steps;
}

type Listed = Extract<RestoreOutcome, { action: "choose" }>["list"];

/** Up to three candidates as options, then skip; a number beyond them is typed. */
function pickOptions(list: Listed): string {
  const rows = list
    .slice(0, 3)
    .map((c) => quote(`${c.n}. ${c.task} (${c.branch}, saved ${c.saved})`));
  return [...rows, quote("Skip")].join(" / ");
}

/** What the model does with a restore answer. */
export function restoreNext(o: RestoreOutcome): string[] {
  switch (o.action) {
    case "restore":
      return restoredNext(o);
    case "choose":
      return [
        `AskUserQuestion "Which checkpoint to restore?": ${pickOptions(o.list)} (the user may type another number from the menu); run \`E restore --json --pick N\`, or stop on skip.`,
      ];
    case "synthesize":
      return [
        `AskUserQuestion "Synthesize a minimal restore from session-state only?": "Yes" (run \`E restore --json --synthesize\`) / "No" (run \`E restore --json --decline-synthesis\`: not offered again for this file; relay its answer)${o.list.length ? ` / ${pickOptions(o.list).replace(/ \/ "Skip"$/, "")} (run \`E restore --json --pick N\`)` : ""}.`,
      ];
    case "none":
      return ["Relay the reason."];
    case "invalid":
      // Seed: invalid picker or replay input is asked again once; a second invalid answer is a skip.
      return [
        "Relay the reason, then ask the user once more with the same choices. If the second answer is invalid too, skip: restore nothing after a pick, or run with `--replay none` for the blocked prompts.",
      ];
  }
}
