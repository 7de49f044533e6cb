import { readTextByRule } from "../core/file-range.ts";
import * as path from "node:path";
import type { FsApi } from "../core/deps.ts";
import { isUsableSessionId, SESSION_ID_PATTERN } from "../core/ids.ts";
import { parseKeyValues, parseSentinelName, sentinelPath } from "./sentinels.ts";
import { listByMtime } from "../core/dir-listing.ts";
import { DAY_MS } from "../core/time-format.ts";
import { skillWithPid } from "./pidfile.ts";

/** mid-agent-handoff-<sid>.txt, written by a mid-agent save (seed save step 4c). */
interface HandoffFields {
  prior_session_uuid: string;
  task_name?: string;
  active_skills?: string;
  timestamp?: string;
}
export type MidAgentHandoff = HandoffFields & { file: string };

/**
 * The handoff's fields, and only those (a key absent stays absent); null without a well-formed
 * prior_session_uuid. Every value of a key=value text is a string. NOTE: no zod: the sessionstart
 * hook loads this file for handoffSkillList (see core/value-checks.ts).
 */
function handoffFields(kv: Record<string, string>): HandoffFields | null {
  const id = kv["prior_session_uuid"];
  if (id === undefined || !SESSION_ID_PATTERN.test(id)) return null;
  const out: HandoffFields = { prior_session_uuid: id };
  for (const key of ["task_name", "active_skills", "timestamp"] as const) {
    const value = kv[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

const OURS = /^([a-z0-9][a-z0-9_-]{0,63}) \(pid ([0-9]{1,10})\)$/;
const QUOINS = /^([a-z0-9][a-z0-9_-]{0,63}) ([0-9]{1,10})$/;
const BARE = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * The skills a handoff names, as "<skill> (pid N)", from either writer: save here writes
 * `active_skills=plan (pid 412), implement (pid 977)`; quoin writes the `skill PID` lines of
 * pidfile_active_skills (`active_skills=implement 41234`, a second skill on the next line, which
 * has no `=`); a bare skill name passes as itself. Only entries of those exact shapes pass: names and numbers, never free text.
 */
export function handoffSkillList(text: string): string[] {
  const lines = text.split("\n").map((l) => l.replace(/\r$/, ""));
  const at = lines.findIndex((l) => /^\s*active_skills\s*=/.test(l));
  if (at < 0) return [];
  const raw = [lines[at]!.slice(lines[at]!.indexOf("=") + 1)];
  for (const next of lines.slice(at + 1)) {
    if (next.includes("=") || next.trim() === "") break;
    raw.push(next);
  }
  const out: string[] = [];
  for (const entry of raw.flatMap((r) => r.split(",")).map((e) => e.trim())) {
    const m = OURS.exec(entry) ?? QUOINS.exec(entry);
    if (m) out.push(skillWithPid({ skill: m[1]!, pid: Number(m[2]) }));
    else if (BARE.test(entry)) out.push(entry);
  }
  return out.slice(0, 10);
}

/**
 * The handoff a restore should mention: this session's, else the newest within the window.
 * Informational only (names, no content); the restore does not consume it.
 */
export function findMidAgentHandoff(
  fs: FsApi,
  memoryDir: string,
  sid: string,
  nowMs: number,
  windowDays: number,
): MidAgentHandoff | null {
  const own = isUsableSessionId(sid) ? sentinelPath(memoryDir, "mid-agent-handoff", sid) : null;
  const files = listByMtime(
    fs,
    memoryDir,
    (n) => parseSentinelName(n)?.family === "mid-agent-handoff",
  ).filter((f) => f.path === own || nowMs - f.mtimeMs < windowDays * DAY_MS);
  const chosen = files.find((f) => f.path === own) ?? files[0];
  if (!chosen) return null;
  try {
    const text = readTextByRule(fs, chosen.path);
    const parsed = handoffFields(parseKeyValues(text));
    if (!parsed) return null;
    const skills = handoffSkillList(text);
    return {
      ...parsed,
      active_skills: skills.length ? skills.join(", ") : undefined,
      file: path.resolve(chosen.path),
    };
  } catch {
    return null;
  }
}

export function handoffLine(h: MidAgentHandoff): string {
  return `[checkpoint] mid-agent handoff from session ${h.prior_session_uuid}${h.task_name ? ` (task ${h.task_name})` : ""}${
    h.active_skills ? `; skills active then: ${h.active_skills}` : ""
  }`;
}
