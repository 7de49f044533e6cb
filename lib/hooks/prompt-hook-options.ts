import type { SkeletonRequest } from "../save/skeleton-save.ts";

// The prompt hook's options, apart from the hook so that its cold part (prompt-cold.ts) and the
// engine's forced save (lib/edge) name them without importing the hook itself.

/**
 * The forced save with the transcript digest, done elsewhere (the engine's `snapshot`, run by the
 * hook's entry point) so that this hook's bundle never loads the digest; null when it failed.
 */
export type ForcedSave = (
  req: SkeletonRequest & { transcriptPath: string | null },
) => { checkpoint: string } | null;

export interface PromptHookOptions {
  forcedSave?: ForcedSave;
}
