import { utcDate, utcStamp } from "../core/time-format.ts";

/** The three checkpoint file-name shapes of the seed. */
export type CheckpointShape =
  | { kind: "timestamped"; date: string; time: string; rest: string }
  | { kind: "legacy"; date: string; rest: string }
  | { kind: "precompact"; date: string; rest: string };

const TIMESTAMPED = /^(\d{4}-\d{2}-\d{2})T(\d{2})(\d{2})-(.+)\.md$/;
const DATED = /^(\d{4}-\d{2}-\d{2})-(.+)\.md$/;

export function parseCheckpointName(name: string): CheckpointShape | null {
  const ts = TIMESTAMPED.exec(name);
  if (ts) return { kind: "timestamped", date: ts[1]!, time: `${ts[2]}:${ts[3]}`, rest: ts[4]! };
  const dated = DATED.exec(name);
  if (!dated) return null;
  const rest = dated[2]!;
  if (rest.endsWith("-precompact"))
    return { kind: "precompact", date: dated[1]!, rest: rest.slice(0, -"-precompact".length) };
  return { kind: "legacy", date: dated[1]!, rest };
}

/** How the picker shows when a checkpoint was saved, from its file name. */
export function savedTimeLabel(shape: CheckpointShape): string {
  switch (shape.kind) {
    case "timestamped":
      return `${shape.date} ${shape.time} UTC`;
    case "legacy":
      return `${shape.date} (legacy)`;
    case "precompact":
      return `${shape.date} (precompact)`;
  }
}

/** <YYYY-MM-DD>T<HHMM>-<task>.md, then -2, -3 ... for a second save in the same minute. */
export function voluntaryCheckpointName(now: Date, task: string, n = 1): string {
  return `${utcStamp(now)}-${task}${n > 1 ? `-${n}` : ""}.md`;
}

/** <YYYY-MM-DD>-<task>-precompact.md; a collision becomes <date>-<task>-<n>-precompact.md so the suffix stays last. */
export function precompactCheckpointName(now: Date, task: string, n = 1): string {
  return `${utcDate(now)}-${task}${n > 1 ? `-${n}` : ""}-precompact.md`;
}
