import { readTextByRule } from "../core/file-range.ts";
import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { writeAtomic } from "../core/atomic-write.ts";
import { isUsableSessionId } from "../core/ids.ts";
import { utcIso } from "../core/time-format.ts";
import { isFiniteNumber, isRecord, isString } from "../core/value-checks.ts";
import { parseKeyValues } from "./sentinels.ts";
import { compareNames } from "../core/dir-listing.ts";

/** sessions/<skill>-<sid>.pidfile.lock: which skill runs in which session, for how long. */
const PIDFILE_TTL_MS = 2 * 60 * 60 * 1000;

const SKILL_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export interface Pidfile {
  skill: string;
  session: string;
  pid: number;
  acquired_at: string;
}

/**
 * Our JSON pidfile's four fields, and only those (any other key is dropped); null when one is
 * missing or of the wrong type. NOTE: no zod: the sessionstart and precompact hooks load this file
 * (see core/value-checks.ts).
 */
function pidfileFields(json: unknown): Pidfile | null {
  if (!isRecord(json)) return null;
  const { skill, session, pid, acquired_at } = json;
  if (!isString(skill) || !isString(session) || !isFiniteNumber(pid) || !isString(acquired_at))
    return null;
  return { skill, session, pid, acquired_at };
}

/** `plan (pid 412)`: the one way a running skill is named in messages and sentinels. */
export function skillWithPid(p: { skill: string; pid: number }): string {
  return `${p.skill} (pid ${p.pid})`;
}

export function pidfilePath(sessionsDir: string, skill: string, sid: string): string {
  if (!SKILL_NAME.test(skill))
    throw new Error(
      `skill name ${JSON.stringify(skill)} is not valid: expected [a-z0-9_-], at most 64 characters`,
    );
  if (!isUsableSessionId(sid))
    throw new Error(`session id ${JSON.stringify(sid)} is not valid for a pidfile`);
  return path.join(sessionsDir, `${skill}-${sid}.pidfile.lock`);
}

export function acquirePidfile(
  deps: Deps,
  sessionsDir: string,
  skill: string,
  sid: string,
  pid: number,
): string {
  const file = pidfilePath(sessionsDir, skill, sid);
  const body: Pidfile = { skill, session: sid, pid, acquired_at: utcIso(deps.now()) };
  writeAtomic(deps.fs, file, `${JSON.stringify(body)}\n`, { pid: deps.pid });
  return file;
}

export interface ActivePidfile extends Pidfile {
  file: string;
}

const QUOIN_NAME = /^([a-z0-9][a-z0-9_-]{0,63})-([0-9]{1,10})\.pidfile\.lock$/;

/**
 * A pidfile as quoin's pidfile_helpers.sh writes it: <skill>-<pid>.pidfile.lock holding
 * `skill=`, `pid=`, `timestamp=` lines, no session (session ""). The timestamp, else the mtime,
 * dates it.
 */
function parseQuoinPidfile(name: string, text: string, mtimeMs: () => number): Pidfile | null {
  const kv = parseKeyValues(text);
  const pid = Number(kv["pid"]);
  const named = QUOIN_NAME.exec(name);
  if (!kv["skill"] || !Number.isInteger(pid) || pid <= 0 || !named || named[1] !== kv["skill"])
    return null;
  const stamp = Date.parse(kv["timestamp"] ?? "");
  return {
    skill: kv["skill"],
    session: "",
    pid,
    acquired_at: utcIso(new Date(Number.isFinite(stamp) ? stamp : mtimeMs())),
  };
}

/** Ours (JSON) or quoin's (key=value); null when neither. */
function parsePidfile(name: string, text: string, mtimeMs: () => number): Pidfile | null {
  if (!text.trimStart().startsWith("{")) return parseQuoinPidfile(name, text, mtimeMs);
  const parsed = pidfileFields(JSON.parse(text));
  // A pidfile's fields reach sentinels and checkpoint notes: only well-formed names pass.
  if (!parsed || !isUsableSessionId(parsed.session)) return null;
  return parsed;
}

/**
 * Live pidfiles: parseable (ours, or quoin's key=value with session ""), younger than the TTL,
 * and their process still alive.
 */
export function activePidfiles(deps: Deps, sessionsDir: string): ActivePidfile[] {
  let names: string[];
  try {
    names = deps.fs.readdirSync(sessionsDir);
  } catch {
    return [];
  }
  const out: ActivePidfile[] = [];
  const now = deps.now().getTime();
  for (const name of names) {
    if (!name.endsWith(".pidfile.lock")) continue;
    const file = path.join(sessionsDir, name);
    try {
      const data = parsePidfile(
        name,
        readTextByRule(deps.fs, file),
        () => deps.fs.statSync(file).mtimeMs,
      );
      if (!data || !SKILL_NAME.test(data.skill)) continue;
      const age = now - Date.parse(data.acquired_at);
      if (!(age >= 0 && age < PIDFILE_TTL_MS)) continue;
      if (!deps.isProcessAlive(data.pid)) continue;
      out.push({ ...data, file });
    } catch {}
  }
  return out.sort((a, b) => compareNames(a.file, b.file));
}
