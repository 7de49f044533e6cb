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
import { cutText, str } from "./transcript-digest-line.ts";
import type { ToolCall, ToolOutcome } from "./transcript-digest-pass.ts";

// What the session's Bash calls left behind: the failures that still stand, its commits, the
// tracker items it closed and the files changed after its last commit.

/** A failed command as the checkpoint holds it. */
export type FailedCommand = DigestFailure;

const NEWEST_FAILURES = 5;
const COMMAND_CHARS = 160;
const ERROR_CHARS = 160;

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
  return cutText(telling ?? lines[0] ?? "", ERROR_CHARS);
}

/** Failures that still stand and this session's commits, in call order: what was
 * happening, not only what was touched. */
export class RunLog {
  private readonly failed: (FailedCommand & { key: string })[] = [];
  readonly commits: SessionCommit[] = [];
  /** tracker items the model closed (`bd close X`, `gh issue close 12`), in call order */
  readonly closes: LastWord[] = [];
  /** changed paths since the newest commit, newest last */
  afterCommit: string[] = [];

  run(call: ToolCall, outcome: ToolOutcome | undefined): void {
    const command = str((call.input as unknown as Partial<BashInput>).command);
    if (call.name !== "Bash" || command === null) return;
    const committing = commitCall(command);
    if (committing && outcome && !outcome.rejected) {
      const found = commitsInResult(outcome.text, call.at, call.subagent);
      addCommits(this.commits, found, committing.amend);
      if (found.length) this.afterCommit = [];
      // A commit that went through settles the earlier committing calls that failed (a hook
      // refused them; the message changed since, so their key differs).
      if (found.length && !call.subagent)
        for (let i = this.failed.length - 1; i >= 0; i -= 1)
          if (commitCall(this.failed[i]!.key)) this.failed.splice(i, 1);
    }
    if (call.subagent || outcome?.rejected) return;
    const { key, piped } = commandKey(command);
    const close = outcome?.isError ? null : trackerClose(command);
    if (close !== null) this.closes.push({ text: close, at: call.at });
    if (outcome?.isError) {
      this.failed.push({
        command: cutText(command, COMMAND_CHARS),
        error: errorLine(outcome.text),
        at: call.at,
        key,
      });
      return;
    }
    if (!runPassed(false, piped, outcome?.text ?? "")) return;
    for (let i = this.failed.length - 1; i >= 0; i -= 1)
      if (this.failed[i]!.key === key) this.failed.splice(i, 1);
  }

  changed(path: string): void {
    this.afterCommit = [...this.afterCommit.filter((p) => p !== path), path];
  }

  standing(): FailedCommand[] {
    return this.failed.slice(-NEWEST_FAILURES).map(({ key: _key, ...f }) => f);
  }
}
