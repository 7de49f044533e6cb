import type { Deps } from "../core/deps.ts";
import { writeAtomic } from "../core/atomic-write.ts";
import { readHead } from "../core/file-range.ts";
import { utcIso } from "../core/time-format.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { sentinelPath } from "../store/sentinels.ts";

// The document a `save --ask-mode` was given, kept while the person picks a mode, so the second
// call is `save --mode M --asked` with no document: one pipe of the JSON, not two. Per session,
// owner-only (it holds the model's words), 10 minutes, deleted when taken.

export const ASKED_DOCUMENT_MS = 10 * 60 * 1000;
/** Larger than any document the skill's 3,000-character budget allows; a longer one is not kept. */
export const ASKED_DOCUMENT_MAX_BYTES = 64 * 1024;

export function keepAskedDocument(
  deps: Deps,
  paths: MemoryPaths,
  sid: string,
  raw: string,
): boolean {
  if (Buffer.byteLength(raw) > ASKED_DOCUMENT_MAX_BYTES) return false;
  const file = sentinelPath(paths.memory, "asked-document", sid);
  writeAtomic(deps.fs, file, `${utcIso(deps.now())}\n${raw}`, { pid: deps.pid, mode: 0o600 });
  return true;
}

export type TakenDocument =
  | { ok: true; raw: string }
  | { ok: false; reason: "none kept" | "expired" };

/** The kept document, deleted as it is taken; an expired one is deleted and not used. */
export function takeAskedDocument(deps: Deps, paths: MemoryPaths, sid: string): TakenDocument {
  const file = sentinelPath(paths.memory, "asked-document", sid);
  const text = readHead(deps.fs, file, ASKED_DOCUMENT_MAX_BYTES + 64);
  if (text === null) return { ok: false, reason: "none kept" };
  try {
    deps.fs.unlinkSync(file);
  } catch {
    // already gone (a second call raced this one): what was read is still this session's
  }
  const nl = text.indexOf("\n");
  const kept = Date.parse(text.slice(0, nl));
  const age = deps.now().getTime() - kept;
  if (nl < 0 || Number.isNaN(kept) || age < 0 || age > ASKED_DOCUMENT_MS)
    return { ok: false, reason: "expired" };
  return { ok: true, raw: text.slice(nl + 1) };
}

/** Drops a kept document (a save that was handed one anew, or a save with no mode question). */
export function dropAskedDocument(deps: Deps, paths: MemoryPaths, sid: string): void {
  try {
    deps.fs.unlinkSync(sentinelPath(paths.memory, "asked-document", sid));
  } catch {
    // none kept
  }
}
