/** The status line of a precompact checkpoint; save step 1.4 reads it back to tell a manual /compact. */
export function precompactStatus(trigger: string): string {
  return `checkpoint save (precompact, ${trigger} trigger)`;
}

/** Any precompact checkpoint's status line (auto, manual or an unknown trigger). */
export function isPrecompactStatus(status: string | undefined): boolean {
  return status?.startsWith("checkpoint save (precompact, ") === true;
}

export function isManualPrecompactStatus(status: string | undefined): boolean {
  return status === precompactStatus("manual");
}

const SESSION_END_PREFIX = "checkpoint save (session end, ";

/** The status line of a session-end snapshot; the picker and the startup line read it back. */
export function sessionEndStatus(reason: string): string {
  return `${SESSION_END_PREFIX}${reason})`;
}

export function isSessionEndStatus(status: string | undefined): boolean {
  return status?.startsWith(SESSION_END_PREFIX) === true && status.endsWith(")");
}

/** A checkpoint the model wrote through /checkpoint (restore or load-as-reference mode), not a hook's snapshot. */
export function isCuratedStatus(status: string | undefined): boolean {
  return status?.startsWith("checkpoint save (voluntary") === true;
}
