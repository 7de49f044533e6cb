const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** 2026-11-29 (UTC) */
export function utcDate(d: Date): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** 2026-11-29T2107 (UTC), the voluntary-checkpoint file stamp */
export function utcStamp(d: Date): string {
  return `${utcDate(d)}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}`;
}

/** 2026-11-29T21:07:26Z */
export function utcIso(d: Date): string {
  return `${utcDate(d)}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}Z`;
}

/** 2026-11-29 21:07 UTC */
export function utcHuman(d: Date): string {
  return `${utcDate(d)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

/** 3h12m, 45m, 2d4h */
export function formatDuration(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return `${days}d${hours}h`;
  if (hours > 0) return `${hours}h${pad(mins)}m`;
  return `${mins}m`;
}

export const DAY_MS = 86_400_000;
