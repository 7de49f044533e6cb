import type { DigestFile } from "../store/checkpoint-values.ts";
import type {
  FileEditInput,
  FileReadInput,
  FileWriteInput,
  GlobInput,
  GrepInput,
  NotebookEditInput,
} from "@anthropic-ai/claude-code/sdk-tools.d.ts";
import { str } from "./transcript-digest-line.ts";
import type { ToolCall } from "./transcript-digest-pass.ts";

// The working set: which files the session's tool calls changed and which it only read, by
// project path, newest first.

export interface WorkingFile extends DigestFile {
  lastAt: string | null;
}

/** The one shape of a file-editing tool the pinned client no longer describes in sdk-tools.d.ts. */
interface MultiEditInput {
  file_path: string;
}

/** The tools that change the file they name; the others that name one (Read, Grep, Glob) read it. */
export const CHANGERS = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);
const SEARCHERS = new Set(["Grep", "Glob"]);
const EXTENSIONLESS_FILES =
  /^(Makefile|Dockerfile|Gemfile|Rakefile|Procfile|Justfile|Containerfile|LICENSE|README|CHANGELOG)$/;

/**
 * Whether a Grep/Glob `path` names a file rather than a folder. The pure part cannot stat, so: the
 * last segment has an extension (`x.ts`, `mix.exs`; not a dot-folder like `.github`) or is a
 * well-known extensionless file name. A trailing `/` or a glob character means a folder or pattern.
 */
export function looksLikeFile(p: string): boolean {
  if (p.endsWith("/") || /[*?[\]{}]/.test(p)) return false;
  const last = p.slice(p.lastIndexOf("/") + 1);
  return /^[^.].*\.[A-Za-z0-9]{1,10}$/.test(last) || EXTENSIONLESS_FILES.test(last);
}

/** Relative to the project root when inside it; `./` dropped; otherwise as the tool saw it. */
export function projectPath(p: string, root: string): string {
  const base = root.replace(/\/+$/, "");
  if (base !== "" && p.startsWith(`${base}/`)) return p.slice(base.length + 1);
  return p.startsWith("./") ? p.slice(2) : p;
}

/** The file a call read or changed, as the tool saw it; null for a folder, a pattern or another tool. */
export function filePathOf(call: ToolCall): string | null {
  if (call.name === "NotebookEdit")
    return str((call.input as unknown as NotebookEditInput).notebook_path);
  if (
    call.name === "Edit" ||
    call.name === "Write" ||
    call.name === "MultiEdit" ||
    call.name === "Read"
  ) {
    type FileInput = FileEditInput | FileWriteInput | MultiEditInput | FileReadInput;
    return str((call.input as unknown as FileInput).file_path);
  }
  if (SEARCHERS.has(call.name)) {
    const p = str((call.input as unknown as GrepInput | GlobInput).path);
    return p !== null && looksLikeFile(p) ? p : null;
  }
  return null;
}

export class FileTally {
  private readonly files = new Map<string, WorkingFile>();

  touch(path: string, at: string | null): void {
    const seen = this.files.get(path);
    // Re-inserting keeps the Map in recency order: the newest touch is last.
    this.files.delete(path);
    this.files.set(path, {
      path,
      count: (seen?.count ?? 0) + 1,
      lastAt: at ?? seen?.lastAt ?? null,
    });
  }

  has(path: string): boolean {
    return this.files.has(path);
  }

  newestFirst(skip?: FileTally): WorkingFile[] {
    return [...this.files.values()].filter((f) => !skip?.has(f.path)).reverse();
  }
}
