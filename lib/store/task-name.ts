import { reduceTaskName } from "../core/ids.ts";

// The one rule every checkpoint writer names its task by: never `unknown` while
// something better exists (a checkpoint named `unknown` cannot be told from another in the picker).

export type TaskSource = "given" | "session-state" | "branch" | "first-request" | "none";

export interface TaskSources {
  /** the model's or the person's --task */
  given?: string | null;
  /** the task of the session-state file (its file name's task part) */
  sessionState?: string | null;
  /** the git branch; main, master, trunk, a detached HEAD and "unknown" do not name a task */
  branch?: string | null;
  /** the session's first typed request */
  firstRequest?: string | null;
}

export interface TaskChoice {
  task: string;
  source: TaskSource;
  /** set when --task had to be reduced to a file-name-safe form */
  warning?: string;
}

const GENERIC_BRANCHES = new Set(["main", "master", "trunk", "head", "unknown"]);
const SLUG_WORDS = 6;
const SLUG_CHARS = 40;

/** A branch names a task unless it is a trunk, a detached HEAD, or unreadable. */
export function branchNamesTask(branch: string | null | undefined): branch is string {
  return Boolean(
    branch && branch.trim() !== "" && !GENERIC_BRANCHES.has(branch.trim().toLowerCase()),
  );
}

/** A short slug of a request: its first few words, reduced to [a-z0-9-], cut at a word. */
export function requestSlug(text: string | null | undefined): string | null {
  const words = (text ?? "")
    .replace(/<[^>]*>/g, " ")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .slice(0, SLUG_WORDS);
  let slug = "";
  for (const w of words) {
    const next = slug ? `${slug}-${w}` : w;
    if (next.length > SLUG_CHARS) break;
    slug = next;
  }
  if (!slug && words[0]) slug = words[0].slice(0, SLUG_CHARS);
  return slug || null;
}

/** --task, else the session-state file's task, else a named branch, else a slug of the first request, else "unknown". */
export function chooseTask(src: TaskSources): TaskChoice {
  const given = src.given?.trim();
  if (given) {
    const task = reduceTaskName(given);
    return task === given
      ? { task, source: "given" }
      : {
          task,
          source: "given",
          warning: `[checkpoint] task name ${JSON.stringify(given)} reduced to '${task}' (file names use a-z, 0-9 and '-')`,
        };
  }
  if (src.sessionState?.trim())
    return { task: reduceTaskName(src.sessionState), source: "session-state" };
  if (branchNamesTask(src.branch)) return { task: reduceTaskName(src.branch), source: "branch" };
  const slug = requestSlug(src.firstRequest);
  if (slug) return { task: reduceTaskName(slug), source: "first-request" };
  return { task: "unknown", source: "none" };
}
