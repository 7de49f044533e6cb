import type { DigestTodo } from "../store/checkpoint-values.ts";
import type {
  TaskCreateOutput,
  TaskUpdateInput,
  TodoWriteInput,
} from "@anthropic-ai/claude-code/sdk-tools.d.ts";
import { isRecord as isObj } from "../core/value-checks.ts";
import { str } from "./transcript-digest-line.ts";
import type { ToolCall, ToolOutcome } from "./transcript-digest-pass.ts";

// The session's todo list: the newest TodoWrite list, or the list the TaskCreate/TaskUpdate calls
// built, whichever came last.

/** A todo as the tracker and the checkpoint hold it. */
export type TodoItem = DigestTodo;

type TodoStatus = TodoItem["status"];
const STATUSES: readonly string[] = ["pending", "in_progress", "completed"];
const asStatus = (v: unknown): TodoStatus | null =>
  typeof v === "string" && STATUSES.includes(v) ? (v as TodoStatus) : null;

export function todoWriteList(input: Record<string, unknown>): TodoItem[] | null {
  const todos = (input as unknown as Partial<TodoWriteInput>).todos;
  if (!Array.isArray(todos)) return null;
  const out: TodoItem[] = [];
  for (const t of todos) {
    const content = isObj(t) ? str(t["content"]) : null;
    const status = isObj(t) ? asStatus(t["status"]) : null;
    if (content !== null && status !== null) out.push({ content, status });
  }
  return out;
}

/** The id TaskCreate's result gives the new task: `toolUseResult.task.id`, else "Task #N" in the text. */
export function createdTaskId(outcome: ToolOutcome): string | null {
  const result = outcome.result as Partial<TaskCreateOutput> | undefined;
  if (isObj(result) && isObj(result.task)) {
    const id = result.task.id as unknown;
    if (typeof id === "string" || typeof id === "number") return String(id);
  }
  return /Task #?(\w+)/.exec(outcome.text)?.[1] ?? null;
}

/** The list rebuilt from TaskCreate/TaskUpdate in call order; deleted tasks dropped. */
export class TaskBoard {
  private readonly tasks = new Map<string, TodoItem>();
  at: string | null = null;
  seen = false;

  create(call: ToolCall, outcome: ToolOutcome | undefined): void {
    const subject = str(call.input["subject"]);
    const id = outcome ? createdTaskId(outcome) : null;
    if (subject === null) return;
    this.tasks.set(id ?? `pending-${call.id}`, { content: subject, status: "pending" });
    this.note(call.at);
  }

  update(call: ToolCall): void {
    const input = call.input as unknown as Partial<TaskUpdateInput>;
    const id = input.taskId === undefined ? null : String(input.taskId);
    if (id === null) return;
    if (input.status === "deleted") {
      this.tasks.delete(id);
      this.note(call.at);
      return;
    }
    const known = this.tasks.get(id);
    const subject = str(input.subject) ?? known?.content;
    // A task created before the read window and never renamed since has no subject we know of.
    if (subject === undefined) return;
    this.tasks.set(id, {
      content: subject,
      status: asStatus(input.status) ?? known?.status ?? "pending",
    });
    this.note(call.at);
  }

  private note(at: string | null): void {
    this.seen = true;
    this.at = at ?? this.at;
  }

  list(): TodoItem[] {
    return [...this.tasks.values()];
  }
}
