import type { RestoreOutcome, Restored, ResumeSummary } from "./restore-run.ts";

// The per-case wording of restore, in the engine's answer rather than in the skill: `next` says
// what the model does with this answer (ask, run, read, restate), so the SKILL.md stays small.

const MARK: Record<string, string> = { completed: "[x]", in_progress: "[>]", pending: "[ ]" };
const files = (list: readonly { path: string; count: number }[]) =>
  list.map((f) => `${f.path}${f.count > 1 ? ` (x${f.count})` : ""}`).join(", ");

/** What the session was doing, for the text form: requests, todos, working set, failures, the model's state. */
export function sessionLines(s: ResumeSummary): string[] {
  const x = s.session;
  const lines: string[] = [];
  if (x.firstRequest && x.firstRequest !== x.newestRequest)
    lines.push(`First request: ${x.firstRequest}`);
  if (x.newestRequest) lines.push(`Newest request: ${x.newestRequest}`);
  if (x.todos) {
    lines.push(`Todos: ${x.todos.length ? "" : "(empty list)"}`.trimEnd());
    for (const t of x.todos) lines.push(`  ${MARK[t.status] ?? "[ ]"} ${t.content}`);
  }
  if (x.changed.length) lines.push(`Changed files (newest first): ${files(x.changed)}`);
  if (x.read.length) lines.push(`Read files (newest first): ${files(x.read)}`);
  for (const o of x.omitted) lines.push(`  (${o} in the checkpoint's count)`);
  for (const f of x.failures) lines.push(`Failed: \`${f.command}\`: ${f.error}`);
  if (x.done.length) lines.push(`Done: ${x.done.join("; ")}`);
  if (x.inProgress) lines.push(`In progress: ${x.inProgress}`);
  for (const n of x.nextUp)
    lines.push(`Next up: ${n.item} (prerequisites met? ${n.prerequisitesMet ? "yes" : "no"})`);
  for (const b of x.blockers) lines.push(`Blocker: ${b}`);
  for (const d of x.decisions) lines.push(`Decision: ${d}`);
  if (x.compactionSummary)
    lines.push(
      `Compaction summary: line ${x.compactionSummary.uuid} of ${x.compactionSummary.transcript}`,
    );
  if (x.historyCutShort)
    lines.push(
      "(the transcript digest was cut short by its read budget: older history is not listed)",
    );
  if (s.reread.length) lines.push(`Re-read now: ${s.reread.join(" ")}`);
  return lines;
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
    return [
      `Show pendingPrompts.menu and ask which to replay (all / numbers / edit N / none; 'all' skips non-replayable), then run \`${rerun} --replay <answer>\`.`,
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
    s?.session.newestRequest ? "the newest request" : "",
  ]
    .filter(Boolean)
    .join(" and ");
  steps.push(`${restate ? `Restate ${restate}, then ask` : "Ask"} the user what to do next.`);
  return steps;
}

/** What the model does with a restore answer. */
export function restoreNext(o: RestoreOutcome): string[] {
  switch (o.action) {
    case "restore":
      return restoredNext(o);
    case "choose":
      return [
        "AskUserQuestion which checkpoint to restore (the newest few as options; the user may type a number or skip); run `E restore --json --pick N`, or stop on skip.",
      ];
    case "synthesize":
      return [
        'AskUserQuestion "Synthesize a minimal restore from session-state only?"; yes: run `E restore --json --synthesize` (or `--pick N` for a listed checkpoint); no: run `E restore --json --decline-synthesis` (not offered again for this file) and relay its answer.',
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
