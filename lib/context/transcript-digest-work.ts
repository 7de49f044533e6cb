import type { TaskCreateInput, TaskUpdateInput } from "@anthropic-ai/claude-code/sdk-tools.d.ts";
import { cutWords } from "../core/text-cut.ts";
import { TEXT_LIMITS } from "../core/text-limits.ts";
import { str } from "./transcript-digest-line.ts";
import type { ToolCall, ToolOutcome } from "./transcript-digest-pass.ts";
import type { PlacedWord } from "./transcript-digest-line.ts";
import { createdTaskId, type TodoItem } from "./transcript-digest-todos.ts";

// The work items in their own words, read from the tracker output the session was shown (no model
// call): the item it claimed or named last, with its title and the head of its description as a
// tool result last showed it, and the items still open as it last listed them. Trackers: beads
// (`bd`/`br`), GitHub issues (`gh issue view/list/develop`), Jira (jira-cli `--plain`), Linear
// (`linear issue view/list/start`), and the TaskCreate/TaskUpdate and TodoWrite lists.

export interface WorkItem {
  id: string;
  title: string;
  /** the head of its description as a tool result last showed it (about 400 characters); null: none seen */
  text: string | null;
}
export interface CurrentItem extends WorkItem {
  /** how the session took it up: the claiming command, or "named in the model's last words" */
  how: string;
}
export interface WorkItems {
  current: CurrentItem | null;
  /** still open as the session last listed them (not closed since), at most 8 */
  open: { id: string; title: string }[];
}

export const NO_WORK_ITEMS: WorkItems = Object.freeze({ current: null, open: [] }) as WorkItems;

const LIMIT = TEXT_LIMITS.digest;

const BEADS_ID = String.raw`[A-Za-z][\w-]*-[a-z0-9]{2,}(?:\.\d+)*`;
const KEY_ID = String.raw`[A-Z][A-Z0-9]+-\d+`;

/** `bd update X --status in_progress`, `bd update X --claim`, `gh issue develop 12`, `jira issue move K "In Progress"`, `linear issue start K`. */
const CLAIMS: RegExp[] = [
  new RegExp(
    String.raw`^\s*(?:bd|br)\s+update\s+(${BEADS_ID})\b[^;&|]*(?:--status[= ]["']?in[_-]progress|--claim)`,
  ),
  /^\s*gh\s+issue\s+develop\s+#?(\d+)\b/,
  new RegExp(String.raw`^\s*jira\s+issue\s+move\s+(${KEY_ID})\s+["']?in progress`, "i"),
  new RegExp(String.raw`^\s*linear\s+issue\s+start\s+(${KEY_ID})\b`),
];
/** `bd close X`, `gh issue close 12`, `jira issue move K Done`, `linear issue update K --state done`. */
const CLOSES: RegExp[] = [
  new RegExp(String.raw`^\s*(?:bd|br)\s+close\s+((?:${BEADS_ID}\s*)+)`),
  /^\s*gh\s+issue\s+close\s+#?(\d+)\b/,
  new RegExp(
    String.raw`^\s*jira\s+issue\s+move\s+(${KEY_ID})\s+["']?(?:done|closed|resolved)`,
    "i",
  ),
  new RegExp(
    String.raw`^\s*linear\s+issue\s+update\s+(${KEY_ID})\b.*--state[= ]["']?(?:done|canceled)`,
    "i",
  ),
];

const parts = (command: string) => command.split(/\s*(?:&&|;|\|\||\n)\s*/);
const head = (text: string) => {
  // markdown heading marks (`## Why`) are dropped: the head is one line of text
  const flat = cutWords(text.replace(/^[ \t]*#{1,6}[ \t]+/gm, ""), LIMIT.workTextChars);
  return flat === "" ? null : flat;
};

/** The item a tracker's `show`/`view` printed: beads, gh (plain), jira-cli (plain), linear. */
export function shownItem(command: string, output: string): WorkItem | null {
  const c = command.trim();
  if (/^(?:bd|br)\s+show\b/.test(c)) {
    const m = new RegExp(
      String.raw`^\S*\s*(${BEADS_ID})\s+(?:\[[A-Z]+\]\s+)?·\s+(.+?)\s+\[[^\]]*\]\s*$`,
      "m",
    ).exec(output);
    if (!m) return null;
    const desc = /^DESCRIPTION\s*$([\s\S]*)/m.exec(output)?.[1] ?? "";
    return { id: m[1]!, title: cutWords(m[2]!, LIMIT.workTitleChars), text: head(desc) };
  }
  if (/^gh\s+issue\s+view\b/.test(c)) {
    const title = /^title:\t(.+)$/m.exec(output)?.[1];
    const number = /^number:\t(\d+)$/m.exec(output)?.[1] ?? /view\s+#?(\d+)/.exec(c)?.[1];
    if (!title || !number) return null;
    const body = /^--\s*$([\s\S]*)/m.exec(output)?.[1] ?? "";
    return { id: `#${number}`, title: cutWords(title, LIMIT.workTitleChars), text: head(body) };
  }
  if (/^jira\s+issue\s+view\b/.test(c)) {
    const id = new RegExp(`(${KEY_ID})`).exec(c)?.[1];
    const title = /^#\s+(.+)$/m.exec(output)?.[1];
    if (!id || !title) return null;
    const desc = /^-+\s*Description\s*-+\s*$([\s\S]*?)(?:^-+\s*\w[\w ]*-+\s*$|$(?![\s\S]))/m.exec(
      output,
    )?.[1];
    return { id, title: cutWords(title, LIMIT.workTitleChars), text: head(desc ?? "") };
  }
  if (/^linear\s+issue\s+view\b/.test(c)) {
    const m = new RegExp(String.raw`^#\s+(${KEY_ID}):?\s+(.+)$`, "m").exec(output);
    if (!m) return null;
    const rest = output.slice((m.index ?? 0) + m[0].length);
    return { id: m[1]!, title: cutWords(m[2]!, LIMIT.workTitleChars), text: head(rest) };
  }
  return null;
}

/** The items a tracker's list printed (`bd ready`/`bd list`, `gh issue list`, jira-cli and linear lists), in order; null: not a list. */
export function listedItems(
  command: string,
  output: string,
): { id: string; title: string }[] | null {
  const c = command.trim();
  const out: { id: string; title: string }[] = [];
  const add = (id: string, title: string) =>
    out.push({ id, title: cutWords(title, LIMIT.workTitleChars) });
  if (/^(?:bd|br)\s+(?:ready|list|blocked)\b/.test(c)) {
    const row = new RegExp(
      String.raw`^\s*(?:\d+\.\s+)?\S?\s*(?:\[[^\]]*\]\s+)*(${BEADS_ID})(?:\s+\[[^\]]*\])*:?\s+(?:-\s+)?(.+)$`,
    );
    for (const line of output.split("\n")) {
      const m = row.exec(line);
      if (m) add(m[1]!, m[2]!);
    }
    return out;
  }
  if (/^gh\s+issue\s+list\b/.test(c)) {
    for (const line of output.split("\n")) {
      const m = /^(\d+)\t(?:OPEN|CLOSED)\t([^\t]+)/.exec(line);
      if (m) add(`#${m[1]}`, m[2]!);
    }
    return out;
  }
  if (/^(?:jira|linear)\s+issue\s+list\b/.test(c)) {
    const lines = output.split("\n").filter((l) => l.trim() !== "");
    const header = (lines[0] ?? "").split(/\t+|\s{2,}/).map((h) => h.trim().toUpperCase());
    const key = header.findIndex((h) => h === "KEY" || h === "ID");
    const title = header.findIndex((h) => h === "SUMMARY" || h === "TITLE");
    if (key < 0 || title < 0) return out;
    for (const line of lines.slice(1)) {
      const cells = line.split(/\t+|\s{2,}/).map((x) => x.trim());
      if (cells[key] && new RegExp(`^${KEY_ID}$`).test(cells[key]!) && cells[title])
        add(cells[key]!, cells[title]!);
    }
    return out;
  }
  return null;
}

/** The id as the session's item list spells it, for a token the model wrote (`gqc.6` for `spotter-gqc.6`). */
function knownId(token: string, ids: Iterable<string>): string | null {
  for (const id of ids) if (id === token || id.endsWith(`-${token}`)) return id;
  return null;
}

/** Builds the work items from the calls in call order, then the model's newest words. */
export class WorkLog {
  private readonly items = new Map<string, WorkItem>();
  private listed: { id: string; title: string }[] | null = null;
  private readonly closed = new Set<string>();
  private claim: { id: string; how: string; index: number; at: string | null } | null = null;
  private readonly tasks = new Map<string, { subject: string; description: string | null }>();

  call(call: ToolCall, outcome: ToolOutcome | undefined, index: number): void {
    // A result the bounded reader skipped (no tracker output in it) still lets a claim or a close count.
    if (outcome?.isError || outcome?.rejected || call.subagent) return;
    const output = outcome?.text ?? "";
    if (call.name === "TaskCreate") {
      const input = call.input as Partial<TaskCreateInput>;
      const id = outcome ? createdTaskId(outcome) : null;
      const subject = str(input.subject);
      if (id && subject)
        this.tasks.set(id, { subject, description: str(input.description) ?? null });
      return;
    }
    if (call.name === "TaskUpdate") {
      const input = call.input as Partial<TaskUpdateInput>;
      const id = input.taskId === undefined ? null : String(input.taskId);
      const task = id ? this.tasks.get(id) : undefined;
      if (id && task && input.status === "in_progress") {
        this.items.set(`task#${id}`, {
          id: `task#${id}`,
          title: task.subject,
          text: task.description && head(task.description),
        });
        this.claim = { id: `task#${id}`, how: "TaskUpdate in_progress", index, at: call.at };
      }
      if (id && (input.status === "completed" || input.status === "deleted"))
        this.closed.add(`task#${id}`);
      return;
    }
    const command = str(call.input["command"]);
    if (call.name !== "Bash" || command === null) return;
    for (const part of parts(command)) {
      const shown = shownItem(part, output);
      if (shown) this.items.set(shown.id, shown);
      const listed = listedItems(part, output);
      if (listed?.length) this.listed = listed;
      for (const re of CLAIMS) {
        const m = re.exec(part);
        if (m)
          this.claim = {
            id: /^\d+$/.test(m[1]!) ? `#${m[1]}` : m[1]!,
            how: cutWords(part, 120),
            index,
            at: call.at,
          };
      }
      for (const re of CLOSES) {
        const m = re.exec(part);
        if (m)
          for (const id of m[1]!.trim().split(/\s+/))
            this.closed.add(/^\d+$/.test(id) ? `#${id}` : id);
      }
    }
  }

  /** When the item in progress was claimed (null: none claimed, or it was closed since). */
  claimedAt(): string | null {
    return this.claim && !this.closed.has(this.claim.id) ? this.claim.at : null;
  }

  /**
   * The current item: the newest reply's first named open item when it came after the last claim,
   * else the last claim not closed since; the open list as last listed (or the todo list's open items).
   */
  result(words: readonly PlacedWord[], todos: readonly TodoItem[] | null): WorkItems {
    const known = new Map<string, string>();
    for (const i of this.listed ?? []) known.set(i.id, i.title);
    for (const i of this.items.values()) known.set(i.id, i.title);
    const open = this.listed
      ? this.listed.filter((i) => !this.closed.has(i.id)).slice(0, LIMIT.openItems)
      : (todos ?? [])
          .filter((t) => t.status !== "completed")
          .slice(0, LIMIT.openItems)
          .map((t) => ({ id: "", title: cutWords(t.content, LIMIT.workTitleChars) }));
    const item = (id: string, how: string): CurrentItem => ({
      ...(this.items.get(id) ?? { id, title: known.get(id) ?? "", text: null }),
      how,
    });
    const last = words.at(-1);
    if (last && (this.claim === null || last.afterCalls > this.claim.index)) {
      const tokens = last.text.match(
        new RegExp(`${BEADS_ID}|${KEY_ID}|#\\d+|\\b[a-z0-9]{2,}(?:\\.\\d+)+\\b`, "g"),
      );
      for (const t of tokens ?? []) {
        const id = knownId(t, known.keys());
        if (id && !this.closed.has(id))
          return { current: item(id, "named in the model's last words"), open };
      }
    }
    if (this.claim && !this.closed.has(this.claim.id))
      return { current: item(this.claim.id, this.claim.how), open };
    const doing = todos?.find((t) => t.status === "in_progress");
    if (doing)
      return {
        current: {
          id: "",
          title: cutWords(doing.content, LIMIT.workTitleChars),
          text: null,
          how: "in progress on the todo list",
        },
        open,
      };
    return { current: null, open };
  }
}
