/** The status line of a precompact checkpoint; save step 1.4 reads it back to tell a manual /compact. */
export function precompactStatus(trigger: string): string {
  return `checkpoint save (precompact, ${trigger} trigger)`;
}

export function isManualPrecompactStatus(status: string | undefined): boolean {
  return status === precompactStatus("manual");
}
