/** The one session-id rule: what may become part of a file name. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9-]{1,128}$/;

export type SessionIdCheck = { ok: true; id: string } | { ok: false; reason: string };

/** A session id must match ^[A-Za-z0-9-]{1,128}$ before it becomes part of a file name. */
export function checkSessionId(raw: string | undefined | null): SessionIdCheck {
  if (raw === undefined || raw === null || raw === "") {
    return { ok: false, reason: "session id is empty; expected a Claude Code session UUID" };
  }
  if (raw === "unknown") {
    return {
      ok: false,
      reason: "session id is the literal 'unknown'; expected a Claude Code session UUID",
    };
  }
  if (!SESSION_ID_PATTERN.test(raw)) {
    const shown = raw.length > 60 ? `${raw.slice(0, 60)}...` : raw;
    return {
      ok: false,
      reason: `session id ${JSON.stringify(shown)} is not valid: expected 1-128 characters of A-Z, a-z, 0-9 and '-'`,
    };
  }
  return { ok: true, id: raw };
}

export function isUsableSessionId(raw: string | undefined | null): raw is string {
  return checkSessionId(raw).ok;
}

/**
 * A task name reduced to [a-z0-9-]: lower case, anything else becomes '-', runs collapsed,
 * ends trimmed, at most 64 characters. Empty input gives "untitled".
 */
export function reduceTaskName(raw: string | undefined | null): string {
  const reduced = (raw ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 64)
    .replace(/-$/, "");
  return reduced === "" ? "untitled" : reduced;
}
