import { readFileSync } from "node:fs";
import * as path from "node:path";
import type {
  PreCompactInput,
  SessionStartInput,
  UserPromptSubmitInput,
} from "../../lib/hooks/hook-io.ts";
import { runPreCompact, type PreCompactOutcome } from "../../lib/hooks/pre-compact.ts";
import { fakeDeps, type FakeDeps } from "./memfs-deps.ts";
import { cutAtCompaction } from "./summary-oracle.ts";

// The real session spotter-4d5611e5 (test/fixtures/transcripts) as the compaction tests replay it:
// its project in a memfs home, its transcript whole or cut just before its compact_boundary, and
// the payloads the client sends around that compaction. Each test adds only what its case is about.

const SID = "4d5611e5-241a-462a-8d15-5122611a9569";
const HOME = "/home/USER";
const ROOT = "/home/USER/projects/spotter-worktrees/spotter-dov";
export const SPOTTER = {
  sid: SID,
  home: HOME,
  root: ROOT,
  transcript: `${HOME}/.claude/projects/-home-USER-projects-spotter-worktrees-spotter-dov/${SID}.jsonl`,
} as const;

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/transcripts");
/** The whole transcript: the compaction's boundary and summary, then the rest of the session. */
export const spotterRaw = readFileSync(path.join(FIXTURES, `spotter-${SID}.jsonl`), "utf8");
export const spotterLines = spotterRaw.split("\n").filter((l) => l.trim() !== "");
const cutLines = cutAtCompaction(spotterLines);
/** The transcript's lines before the compact_boundary. */
export const spotterBefore = cutLines.before;
/** The transcript as it stood when PreCompact ran: cut just before the boundary. */
export const beforeCompaction = `${spotterBefore.join("\n")}\n`;
/** The summary the model wrote after the boundary. */
export const spotterSummary = cutLines.summaryText;
/** The boundary's own time: PreCompact saves a moment before it. */
export const BOUNDARY_AT = (
  JSON.parse(spotterLines.find((l) => l.includes('"compact_boundary"'))!) as { timestamp: string }
).timestamp;

/** The project on its branch, the transcript as given (whole by default), the clock at `now`. */
export const spotterDeps = (o: { transcript?: string; now?: string } = {}): FakeDeps =>
  fakeDeps({
    home: HOME,
    cwd: ROOT,
    ...(o.now ? { now: o.now } : {}),
    files: {
      [`${ROOT}/.git/HEAD`]: "ref: refs/heads/spotter-dov\n",
      [SPOTTER.transcript]: o.transcript ?? spotterRaw,
    },
  });

const common = { session_id: SID, transcript_path: SPOTTER.transcript, cwd: ROOT };
/** The auto compaction's PreCompact payload. */
export const spotterPreCompact: PreCompactInput = {
  hook_event_name: "PreCompact",
  ...common,
  trigger: "auto",
};
/** SessionStart(compact), as the client sends it around the compaction. */
export const spotterCompactStart: SessionStartInput = {
  hook_event_name: "SessionStart",
  ...common,
  source: "compact",
};
export const spotterPrompt = (prompt: string): UserPromptSubmitInput => ({
  hook_event_name: "UserPromptSubmit",
  ...common,
  prompt,
});

/** PreCompact's save, which must succeed. */
export function savedByPreCompact(deps: FakeDeps): Extract<PreCompactOutcome, { saved: true }> {
  const out = runPreCompact(deps, spotterPreCompact);
  if (!out.saved) throw new Error(out.reason);
  return out;
}

/** A hook answer's additionalContext, "" when it has none. */
export const contextOf = (answer: unknown): string =>
  (answer as { hookSpecificOutput?: { additionalContext?: string } } | null)?.hookSpecificOutput
    ?.additionalContext ?? "";
