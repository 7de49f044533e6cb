import type { Deps } from "../core/deps.ts";
import type { ForcedSave } from "../hooks/prompt-hook-options.ts";

/** Under the hook deadline (8 s) with room for the in-process fallback. */
const SNAPSHOT_TIMEOUT_MS = 5000;

/**
 * The block tier's forced save through the engine's `snapshot --kind forced` (a separate node
 * process, so the prompt hook's bundle never loads the transcript digest). null on any failure:
 * the hook then writes the plain skeleton itself.
 */
export function engineForcedSave(deps: Deps, enginePath: string): ForcedSave {
  return (req) => {
    if (!req.sessionId || !deps.fs.existsSync(enginePath)) return null;
    const args = [
      enginePath,
      "snapshot",
      "--kind",
      "forced",
      "--json",
      "--session",
      req.sessionId,
      "--cwd",
      req.launchCwd,
    ];
    if (req.transcriptPath) args.push("--transcript", req.transcriptPath);
    const res = deps.run(process.execPath, args, {
      timeoutMs: SNAPSHOT_TIMEOUT_MS,
      cwd: req.launchCwd,
    });
    if (res.status !== 0) return null;
    try {
      const answer = JSON.parse(res.stdout) as { ok?: unknown; checkpoint?: unknown };
      return answer.ok === true && typeof answer.checkpoint === "string"
        ? { checkpoint: answer.checkpoint }
        : null;
    } catch {
      return null;
    }
  };
}
