import type { TranscriptDigest } from "../context/transcript-digest.ts";
import type { ParsedCheckpoint } from "../store/checkpoint-parse.ts";
import { changesSince } from "./precompact-once.ts";

// The SessionEnd hook's skip rules as pure functions over what it found: the transcript digest,
// this session's newest checkpoint, and whether a commit landed since it was written.

export type SessionEndSkip =
  | { skip: "outside-project"; detail: string }
  | { skip: "no-transcript"; detail: string }
  | { skip: "trivial"; detail: string }
  | { skip: "unchanged"; detail: string; previous: string };

export interface PreviousCheckpoint {
  file: string;
  /** its `savedAt` section (second precision, UTC) */
  savedAt: string;
  /** its `head` section: undefined when not recorded (older checkpoints keep the time rule) */
  head?: string | null;
  /** the checkpoint read back: compared by content (PreCompact's rule) when it has a digest */
  parsed?: ParsedCheckpoint | null;
}

/** The reason as it goes into a status line and a log: [a-z0-9_-], at most 40 characters, "unknown" when absent. */
export function reasonLabel(reason: unknown): string {
  const raw =
    typeof reason === "string"
      ? reason
          .toLowerCase()
          .replace(/[^a-z0-9_-]+/g, "-")
          .replace(/^-+|-+$/g, "")
      : "";
  return raw.slice(0, 40) || "unknown";
}

/** A session worth no snapshot: no file changed, no todo list, at most one typed request. */
export function isTrivialSession(d: TranscriptDigest): boolean {
  // NOTE: a history cut short by the byte budget is long by definition: never trivial.
  return !d.truncated && d.changed.length === 0 && d.todos === null && d.requestCount <= 1;
}

function ms(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
}

/**
 * What the transcript shows happening after `savedAt`: a typed request, a changed file, a todo
 * change. The `savedAt` section has whole seconds, so the whole second it names counts as "before": the
 * /checkpoint request that wrote it came earlier, and its own tool result and reply, like a
 * precompact save's summary, are none of the three.
 */
export function activitySince(d: TranscriptDigest, savedAt: string): string[] {
  const cut = ms(savedAt);
  if (cut === null) return ["the previous checkpoint's save time is unreadable"];
  const after = (iso: string | null | undefined) => {
    const t = ms(iso);
    return t !== null && t >= cut + 1000;
  };
  const found: string[] = [];
  const requests = d.requests.filter((r) => after(r.at)).length;
  if (requests) found.push(`${requests} request(s)`);
  const files = d.changed.filter((f) => after(f.lastAt)).length;
  if (files) found.push(`${files} changed file(s)`);
  if (after(d.todosAt)) found.push("the todo list");
  return found;
}

export interface SkipFacts {
  /** the resolved project root is $HOME or `/` */
  rootIsHomeOrSlash: boolean;
  root: string;
  /** null: the transcript is missing or unreadable */
  digest: TranscriptDigest | null;
  transcriptPath: string | undefined;
  previous: PreviousCheckpoint | null;
  /** commits since previous.savedAt; asked only when nothing else changed and no head was recorded (it runs git) */
  commitsSincePrevious: () => number;
  /** the commit HEAD points at now (read from .git, no process); asked when the previous recorded one */
  headNow: () => string | null;
}

/**
 * Did the repository move since the previous checkpoint? With its `head` section: HEAD now against it
 * (a commit in the same second before that save is not counted again). Without (older
 * checkpoints): a commit since its save time, whole second included.
 */
function movedSince(f: SkipFacts, previous: PreviousCheckpoint): boolean {
  if (previous.head !== undefined) return f.headNow() !== previous.head;
  return f.commitsSincePrevious() > 0;
}

/**
 * Anything new since the previous checkpoint? By content when it was read back with a digest (the
 * newest request and its time, the changed files and counts, the todos, the `head` section: the rule
 * PreCompact uses, precompact-once.ts), so a request in the same second as that save counts;
 * else (an older checkpoint, an unreadable one) by its save time, whole seconds.
 */
function anythingNew(f: SkipFacts, d: TranscriptDigest, previous: PreviousCheckpoint): boolean {
  if (previous.parsed && previous.parsed.digest.requests.length > 0) {
    const head = f.headNow();
    return (
      changesSince({
        digest: d,
        previous: previous.parsed,
        headNow: head,
        commitsSince: f.commitsSincePrevious,
      }).length > 0
    );
  }
  return activitySince(d, previous.savedAt).length > 0 || movedSince(f, previous);
}

/** The first skip rule that applies, or null: write the snapshot. */
export function sessionEndSkip(f: SkipFacts): SessionEndSkip | null {
  if (f.rootIsHomeOrSlash)
    return { skip: "outside-project", detail: `${f.root} is $HOME or /, never a project` };
  if (!f.digest)
    return {
      skip: "no-transcript",
      detail: `transcript ${f.transcriptPath ?? "(not given)"} is missing or unreadable`,
    };
  if (isTrivialSession(f.digest)) {
    return {
      skip: "trivial",
      detail: `no file changed, no todo list, ${f.digest.requestCount} request(s)`,
    };
  }
  if (!f.previous) return null;
  if (anythingNew(f, f.digest, f.previous)) return null;
  return {
    skip: "unchanged",
    detail: `nothing new since ${f.previous.file} (saved ${f.previous.savedAt})`,
    previous: f.previous.file,
  };
}
