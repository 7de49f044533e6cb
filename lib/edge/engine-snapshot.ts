import { removeTempsOf } from "../core/atomic-write.ts";
import { claudeConfigDir } from "../core/config-dir.ts";
import type { Deps } from "../core/deps.ts";
import { sessionRegistryDir } from "../store/session-registry.ts";
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
    // Killed at the timeout (a loaded machine): a write of its may have been cut short between
    // its temp file and the rename. The engine is gone now (spawnSync waited for it): its temp
    // files go, and the hook writes the skeleton instead.
    if (res.status === null && res.pid !== undefined)
      for (const dir of [
        req.paths.checkpoints,
        req.paths.memory,
        sessionRegistryDir(claudeConfigDir(deps.env, deps.home)),
      ])
        removeTempsOf(deps.fs, dir, res.pid);
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
