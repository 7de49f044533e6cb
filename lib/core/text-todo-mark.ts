// A todo's status as the mark every text shows it by: a checkpoint's `## Todos` lines (read back by
// its parser), the brief, the steering text and the re-entry note.

export type TodoStatus = "completed" | "in_progress" | "pending";

export const TODO_MARK: Readonly<Record<TodoStatus, string>> = {
  completed: "[x]",
  in_progress: "[>]",
  pending: "[ ]",
};

/** The mark of a status; an unknown status reads as pending (`[ ]`). */
export const todoMark = (status: string): string =>
  (TODO_MARK as Record<string, string>)[status] ?? TODO_MARK.pending;

/** The status a mark stands for, or null for text that is not a mark. */
export function statusOfMark(mark: string): TodoStatus | null {
  for (const [status, m] of Object.entries(TODO_MARK)) if (m === mark) return status as TodoStatus;
  return null;
}
