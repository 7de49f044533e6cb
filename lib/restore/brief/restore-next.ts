import type { RestoreDecision, Restored } from "../restore-outcome.ts";
import { cutAtWord } from "../../core/text-cut.ts";

// The per-case wording of restore, in the engine's answer rather than in the skill: `next` says
// what the model does with this answer (ask, run, read, restate), so the SKILL.md stays small.

const quote = (t: string) => `"${cutAtWord(t, 80).replace(/"/g, "'")}"`;

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
  // the last edits were not checked: carrying on starts with the checks the session ran
  const check = x?.unverified ? /; (run .+?) first\b/.exec(x.unverified)?.[1] : undefined;
  const options = [
    check
      ? quote(`Carry on: ${check} first`)
      : first
        ? quote(`Carry on: ${first}`)
        : quote("Carry on where the session stopped"),
    ...(drift ? [quote(`Check the ${drift} drift line(s) first`)] : []),
    ...(s?.source === "checkpoint" ? [quote("Read the whole checkpoint file first")] : []),
    quote("Something else"),
  ];
  return options.join(" / ");
}

/** A file this large is skimmed (its head, then the parts the last words name), not read whole. */
export const SKIM_BYTES = 16_000;

/** Read the files, with their total size and each one's in `rereadBytes`: the model skims the large ones. */
function rereadStep(files: readonly string[], sizes: readonly number[] = []): string {
  const total = sizes.reduce((a, b) => a + b, 0);
  // small files are read whole: the step says only how many
  if (!sizes.some((n) => n > SKIM_BYTES))
    return `Read each file in \`reread\` now (${files.length}).`;
  return `Read each file in \`reread\` now (${files.length}, ${Math.round(total / 1000)} KB; \`rereadBytes\` has each size: skim those over ${SKIM_BYTES / 1000} KB).`;
}

function restoredNext(r: Restored): string[] {
  if (r.corrupt)
    return [
      r.corrupt.others.length
        ? "Show the damaged file's text and the hint above; then ask whether to restore one of the other checkpoints listed (run `E restore --json --pick N`), or stop."
        : "Show the raw content and the hint above, then stop.",
    ];
  const rerun = `E restore --json ${r.rerun.join(" ")}`.trimEnd();
  if (r.needs.includes("same-session")) {
    return [
      `AskUserQuestion "Same-session restore detected": "Proceed in this session (not recommended)" (run \`${rerun} --proceed\`) / "Show me how to start a fresh session" (say: open a new session and run /checkpoint --restore there; stop).`,
    ];
  }
  if (r.needs.includes("replay")) {
    const c = r.prompts.case === "C";
    return [
      `AskUserQuestion "Replay which blocked prompts?" (the menu in \`show\`): "All" (\`--replay all\`; skips non-replayable) / "None" (\`--replay none\`)${c ? ' / "Delete them" (`--replay delete`)' : ""} / "Some or edit one" (the user types numbers \`1,3\` or \`edit N\`); then run \`${rerun} --replay <answer>\`.`,
    ];
  }
  const s = r.summary;
  const steps: string[] = [];
  if (s?.reread.length) steps.push(rereadStep(s.reread, s.rereadBytes));
  if (r.replay?.replay.length)
    steps.push(
      "Submit each replay.prompts text as if the user typed it (edit N: show it in full, use the edited text).",
    );
  const restate = [
    s?.session.unverified ? "the last edit's state" : "",
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

type Listed = Extract<RestoreDecision, { action: "choose" }>["list"];

/** Up to three candidates as options, then skip; a number beyond them is typed. */
function pickOptions(list: Listed): string {
  const rows = list
    .slice(0, 3)
    .map((c) => quote(`${c.n}. ${c.task} (${c.branch}, saved ${c.saved})`));
  return [...rows, quote("Skip")].join(" / ");
}

/** What the model does with a restore answer. */
export function restoreNext(o: RestoreDecision): string[] {
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
      return ["Nothing to restore (`show` says why): stop."];
    case "invalid":
      // Seed: invalid picker or replay input is asked again once; a second invalid answer is a skip.
      return [
        "Relay the reason, then ask the user once more with the same choices. If the second answer is invalid too, skip: restore nothing after a pick, or run with `--replay none` for the blocked prompts.",
      ];
  }
}
