import type { DigestFailure } from "../store/checkpoint-values.ts";
import type { BashInput } from "@anthropic-ai/claude-code/sdk-tools.d.ts";
import {
  addCommits,
  commandKey,
  commitCall,
  commitsInResult,
  runPassed,
  trackerClose,
  type LastWord,
  type SessionCommit,
} from "./transcript-handover.ts";
import { cutWords } from "../core/text-cut.ts";
import { TEXT_LIMITS } from "../core/text-limits.ts";
import { str, type PlacedWord } from "./transcript-digest-line.ts";
import { segmentsOf, settles, type Segment } from "./transcript-digest-fixes.ts";
import type { ToolCall, ToolOutcome } from "./transcript-digest-pass.ts";
import type { HookNote } from "./transcript-digest-hooks.ts";

// What the session's Bash calls left behind: the failures that still stand, its commits, the
// tracker items it closed and the files changed after its last commit.

/** A failed command as the checkpoint holds it. */
export type FailedCommand = DigestFailure;

/** A failure a later run settled: what passed, and when. */
export interface FixedFailure extends FailedCommand {
  fixedAt: string | null;
  fixedBy: string;
  /** the model's first words after the failure, before the run that settled it (cut); null: none */
  explanation: string | null;
}

interface Failed extends FailedCommand {
  key: string;
  /** the simple command that failed (the last one of a compound command that is not a setup step) */
  segment: Segment | null;
  output: string;
  index: number;
}

const LIMIT = TEXT_LIMITS.digest;

/** The line that says what went wrong: not "Exit code 1", not a tool_use_error tag, not an npm warning. */
function errorLine(text: string): string {
  const lines = text
    .replace(/<\/?tool_use_error>/g, "")
    .split(/\r?\n|\\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !/^Exit code \d+$/.test(l) && !/^npm (warn|notice)\b/i.test(l));
  const telling = lines.find((l) =>
    /error|fatal|fail|cannot|can't|not found|no such|denied|refused/i.test(l),
  );
  return cutWords(telling ?? lines[0] ?? "", LIMIT.errorChars);
}

/** Failures that still stand and this session's commits, in call order: what was
 * happening, not only what was touched. */
export class RunLog {
  private readonly failed: Failed[] = [];
  private readonly settled: (Failed & { fixedAt: string | null; fixedBy: string; by: number })[] =
    [];
  readonly commits: SessionCommit[] = [];
  /** tracker items the model closed (`bd close X`, `gh issue close 12`), in call order */
  readonly closes: LastWord[] = [];
  /** changed paths since the newest commit, newest last */
  afterCommit: string[] = [];
  /** per file, the edit a PostToolUse hook objected to, until a later edit of it draws no objection */
  private readonly hookObjections = new Map<string, Failed>();

  private settle(i: number, call: ToolCall, index: number): void {
    const [f] = this.failed.splice(i, 1);
    const fixedBy = cutWords(
      str((call.input as Partial<BashInput>).command) ?? "",
      LIMIT.commandChars,
    );
    this.settled.push({ ...f!, fixedAt: call.at, fixedBy, by: index });
  }

  run(call: ToolCall, outcome: ToolOutcome | undefined, index = -1): void {
    const command = str((call.input as unknown as Partial<BashInput>).command);
    if (call.name !== "Bash" || command === null) return;
    const committing = commitCall(command);
    if (committing && outcome && !outcome.rejected) {
      const found = commitsInResult(outcome.text, call.at, call.subagent);
      addCommits(this.commits, found, committing.amend);
      if (found.length) this.afterCommit = [];
      // A commit that went through settles the earlier committing calls that failed (a hook
      // refused them; the message changed since, so their key differs).
      // A failed `git add` is settled too: what it was to stage went in.
      if (found.length && !call.subagent)
        for (let i = this.failed.length - 1; i >= 0; i -= 1) {
          const f = this.failed[i]!;
          if (commitCall(f.key) || (f.segment?.program === "git" && f.segment.sub === "add"))
            this.settle(i, call, index);
        }
    }
    if (call.subagent || outcome?.rejected) return;
    const { key, piped } = commandKey(command);
    const close = outcome?.isError ? null : trackerClose(command);
    if (close !== null) this.closes.push({ text: close, at: call.at });
    if (outcome?.isError) {
      this.failed.push({
        command: cutWords(command, LIMIT.commandChars),
        error: errorLine(outcome.text),
        at: call.at,
        key,
        segment: segmentsOf(command).all.at(-1) ?? null,
        output: outcome.text,
        index,
      });
      return;
    }
    const output = outcome?.text ?? "";
    if (!runPassed(false, piped, output)) return;
    const passed = segmentsOf(command).passedWithWhole;
    for (let i = this.failed.length - 1; i >= 0; i -= 1) {
      const f = this.failed[i]!;
      const seg = f.segment;
      if (
        f.key === key ||
        (seg !== null &&
          passed.some((p) => settles({ segment: seg, output: f.output }, { segment: p, output })))
      )
        this.settle(i, call, index);
    }
  }

  changed(path: string): void {
    this.afterCommit = [...this.afterCommit.filter((p) => p !== path), path];
  }

  /**
   * An edit of `path` and what its PostToolUse hooks objected to (exit 2). A later edit of the same
   * file that draws no objection answers the earlier one: a fix learnt the hard way, as a failed
   * run a later run settled. Only for a client that records hook outcomes (2.1.197 and later); an
   * objection nothing answered is the state line's, not a standing failure.
   */
  hookedEdit(call: ToolCall, path: string, notes: readonly HookNote[], index: number): void {
    const objection = notes.find((n) => n.kind === "error");
    const earlier = this.hookObjections.get(path);
    const edit = `${call.name} ${path}`;
    if (objection) {
      // the first objection stands for the run of attempts: the model's account comes after it
      if (earlier) return;
      const error = errorLine(objection.text);
      this.hookObjections.set(path, {
        command: cutWords(edit, LIMIT.commandChars),
        error: objection.hook ? cutWords(`${objection.hook}: ${error}`, LIMIT.errorChars) : error,
        at: call.at,
        key: `hook ${path}`,
        segment: null,
        output: objection.text,
        index,
      });
      return;
    }
    if (!earlier) return;
    this.hookObjections.delete(path);
    this.settled.push({
      ...earlier,
      fixedAt: call.at,
      fixedBy: cutWords(edit, LIMIT.commandChars),
      by: index,
    });
  }

  standing(): FailedCommand[] {
    return this.failed
      .slice(-LIMIT.failures)
      .map((f) => ({ command: f.command, error: f.error, at: f.at }));
  }

  /**
   * The failures later runs settled, newest first, at most 5: each with the model's first words
   * after it and before the run that settled it (its own account of what went wrong).
   */
  fixed(words: readonly PlacedWord[]): FixedFailure[] {
    return this.settled
      .slice(-LIMIT.failures)
      .reverse()
      .map((f) => {
        const said = words.find(
          (w) => w.afterCalls > f.index && w.afterCalls <= f.by && w.text.trim() !== "",
        );
        return {
          command: f.command,
          error: f.error,
          at: f.at,
          fixedAt: f.fixedAt,
          fixedBy: f.fixedBy,
          explanation: said ? cutWords(said.text, LIMIT.explanationChars) : null,
        };
      });
  }
}
