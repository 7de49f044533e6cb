import { checkSessionId } from "../lib/core/ids.ts";
import type { CliContext } from "./cli-context.ts";

export type SessionForWrite =
  | { ok: true; id: string | null; unavailable?: string }
  | { ok: false; reason: string };

const isEmptyOrUnknown = (v: string) => v.trim() === "" || v === "unknown";

/**
 * The session id for a command that writes files. Empty, `unknown`, or none found: go on without
 * one (the seed's guard refuses the sentinels and says so). Malformed (`../../etc/x`): refuse,
 * with the reason, before any path is built from it.
 */
export function sessionForWrite(ctx: CliContext): SessionForWrite {
  if (ctx.sessionFlag !== undefined) {
    if (isEmptyOrUnknown(ctx.sessionFlag))
      return {
        ok: true,
        id: null,
        unavailable: `--session ${JSON.stringify(ctx.sessionFlag)} is empty/unknown`,
      };
    const check = checkSessionId(ctx.sessionFlag);
    return check.ok
      ? { ok: true, id: check.id }
      : { ok: false, reason: `--session: ${check.reason}` };
  }
  const env = ctx.deps.env["CLAUDE_CODE_SESSION_ID"];
  if (env !== undefined && env !== "" && !isEmptyOrUnknown(env)) {
    const check = checkSessionId(env);
    if (!check.ok) return { ok: false, reason: `CLAUDE_CODE_SESSION_ID: ${check.reason}` };
  }
  const resolved = ctx.session();
  return resolved.ok
    ? { ok: true, id: resolved.id }
    : { ok: true, id: null, unavailable: `session UUID unavailable (${resolved.reason})` };
}
