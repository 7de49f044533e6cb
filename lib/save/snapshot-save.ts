import type { Deps } from "../core/deps.ts";
import { readTranscriptDigest } from "../context/transcript-digest-read.ts";
import type { TranscriptDigest } from "../context/transcript-digest.ts";
import {
  writeSkeletonCheckpoint,
  type SkeletonRequest,
  type SkeletonResult,
} from "./skeleton-save.ts";

// The one writer of a mechanical checkpoint that carries the session: precompact, the block
// tier's forced save (through the engine's `snapshot`), the panic tier and session end. It reads
// the transcript digest (bounded: lib/context/transcript-digest-read.ts) and writes the skeleton
// checkpoint with it. The prompt hook never imports this file (its bundle stays small).
// "Snapshot" in this code means only this: a mechanical checkpoint with the digest, written
// without the model (PreCompact's, the forced save, SessionEnd's). The listing of the memory folder
// the picker reads is a MemoryListing (lib/restore/memory-listing.ts).

export interface SnapshotRequest extends Omit<SkeletonRequest, "digest"> {
  /** the session's transcript; null or unreadable: the checkpoint says the digest is missing */
  transcriptPath: string | null | undefined;
  /** bytes read back from the end (default: the digest's 32 MiB) */
  budgetBytes?: number;
  /** the digest when the caller already read it (PreCompact compares it first); undefined: read it here */
  digest?: TranscriptDigest | null;
}

export interface SnapshotResult extends SkeletonResult {
  digest: TranscriptDigest | null;
}

/** Read the digest of `transcriptPath` for this project and session; null when there is none to read. */
export function readSessionDigest(
  deps: Deps,
  projectRoot: string,
  transcriptPath: string | null | undefined,
  sessionId: string | null,
  budgetBytes?: number,
): TranscriptDigest | null {
  if (!transcriptPath) return null;
  return readTranscriptDigest(deps.fs, transcriptPath, {
    projectRoot,
    sessionId: sessionId ?? undefined,
    budgetBytes,
  });
}

/** A skeleton checkpoint with the transcript digest (and the task rule over it); the sentinel when asked. */
export function writeSnapshotCheckpoint(deps: Deps, req: SnapshotRequest): SnapshotResult {
  const digest =
    req.digest !== undefined
      ? req.digest
      : readSessionDigest(deps, req.paths.root, req.transcriptPath, req.sessionId, req.budgetBytes);
  const notes = [...(req.notes ?? [])];
  if (!digest)
    notes.push(
      req.transcriptPath
        ? `transcript not readable (${req.transcriptPath}); no digest`
        : "no transcript path given; no digest",
    );
  const result = writeSkeletonCheckpoint(deps, { ...req, notes, digest });
  return { ...result, digest };
}
