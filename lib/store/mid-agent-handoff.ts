import * as path from "node:path";
import * as z from "zod/mini";
import type { FsApi } from "../core/deps.ts";
import { isUsableSessionId } from "../core/ids.ts";
import { parseKeyValues, parseSentinelName, sentinelPath } from "./sentinels.ts";
import { listByMtime } from "../core/dir-listing.ts";
import { DAY_MS } from "../core/time-format.ts";

/** mid-agent-handoff-<sid>.txt, written by a mid-agent save (seed save step 4c). */
export const MidAgentHandoffSchema = z.object({
  prior_session_uuid: z.string().check(z.regex(/^[A-Za-z0-9-]{1,128}$/)),
  task_name: z.optional(z.string()),
  active_skills: z.optional(z.string()),
  timestamp: z.optional(z.string()),
});
export type MidAgentHandoff = z.infer<typeof MidAgentHandoffSchema> & { file: string };


/**
 * The handoff a restore should mention: this session's, else the newest within the window.
 * Informational only (names, no content); the restore does not consume it.
 */
export function findMidAgentHandoff(fs: FsApi, memoryDir: string, sid: string, nowMs: number, windowDays: number): MidAgentHandoff | null {
  const own = isUsableSessionId(sid) ? sentinelPath(memoryDir, "mid-agent-handoff", sid) : null;
  const files = listByMtime(fs, memoryDir, (n) => parseSentinelName(n)?.family === "mid-agent-handoff").filter(
    (f) => f.path === own || nowMs - f.mtimeMs < windowDays * DAY_MS,
  );
  const chosen = files.find((f) => f.path === own) ?? files[0];
  if (!chosen) return null;
  try {
    const parsed = MidAgentHandoffSchema.safeParse(parseKeyValues(fs.readFileSync(chosen.path, "utf8") as string));
    return parsed.success ? { ...parsed.data, file: path.resolve(chosen.path) } : null;
  } catch {
    return null;
  }
}

export function handoffLine(h: MidAgentHandoff): string {
  return `[checkpoint] mid-agent handoff from session ${h.prior_session_uuid}${h.task_name ? ` (task ${h.task_name})` : ""}${
    h.active_skills ? `; skills active then: ${h.active_skills}` : ""
  }`;
}
