import {
  exactLine,
  firstLineOf,
  parseSections,
  readExactLine,
  renderSections,
  sanitizeBody,
  sectionBody,
  type Section,
} from "../core/markdown-sections.ts";
import { NO_HEAD_LINE, readHeadLine } from "../core/git.ts";
import { utcIso } from "../core/time-format.ts";
import {
  CHECKPOINT_SOFT_CAP_BYTES,
  digestSections,
  parseDigestSections,
  type CheckpointDigest,
  type ParsedDigest,
} from "./checkpoint-digest.ts";

export interface InFlightArtifacts {
  currentPlan: string | null;
  architecture: string | null;
  criticResponse: string | null;
  review: string | null;
  sessionState: string | null;
  sessionStateResolution: "uuid-anchor" | "mtime-fallback" | null;
}

export const NO_ARTIFACTS: InFlightArtifacts = {
  currentPlan: null,
  architecture: null,
  criticResponse: null,
  review: null,
  sessionState: null,
  sessionStateResolution: null,
};

export interface CommitRef {
  hash: string;
  subject: string;
}

export interface NextUp {
  item: string;
  prerequisitesMet: boolean;
}

export interface CheckpointData {
  status: string;
  currentStage: string;
  task: string;
  branch: string;
  /**
   * `## Head`: the commit HEAD pointed at (lib/core/git.ts readHeadCheap); null: not a repository
   * or no commit yet, written `(none)`. Every writer sets it; undefined leaves the section out.
   */
  head?: string | null;
  /** null when no usable session id was known at save time */
  sessionId: string | null;
  /** Claude Code's transcript folder name for the launch cwd */
  projectHash: string;
  savedAt: Date;
  intent?: string;
  planFile?: string | null;
  artifacts: InFlightArtifacts;
  commits?: readonly CommitRef[];
  /** finished items in words (the model's `done`); commits stay in `commits` */
  done?: readonly string[];
  inProgress?: string;
  nextUp?: readonly NextUp[];
  blockers?: readonly string[];
  openQuestions?: string;
  decisions?: string;
  unfinished?: string;
  notes?: readonly string[];
  /** the transcript digest; its sections are fitted under the 4 KB soft cap */
  digest?: CheckpointDigest | null;
}

const NONE_FOUND = "(none found)";

/** A path as stored: exactly (exactLine), or "(none found)". */
function storedPath(p: string | null | undefined): string {
  return p ? exactLine(p) : NONE_FOUND;
}

function artifactLines(a: InFlightArtifacts): string {
  return [
    `- current-plan.md: ${storedPath(a.currentPlan)}`,
    `- architecture.md: ${storedPath(a.architecture)}`,
    `- latest critic-response: ${storedPath(a.criticResponse)}`,
    `- latest review: ${storedPath(a.review)}`,
    `- session-state: ${storedPath(a.sessionState)}`,
    `- session-state-resolution: ${a.sessionStateResolution ?? "(none)"}`,
  ].join("\n");
}

function sessionLinkLines(sessionId: string | null, projectHash: string): string {
  if (!sessionId)
    return "- Resume: (session UUID unavailable)\n- JSONL: (session UUID unavailable)";
  return `- Resume: claude --resume ${sessionId}\n- JSONL: ~/.claude/projects/${projectHash}/${sessionId}.jsonl`;
}

function restoreHint(task: string, branch: string): string {
  return `Run /checkpoint --restore in a fresh session to resume task '${task}' from branch '${branch}'.`;
}

/** How free text becomes section text: asciiBody (lib/core/ascii-text.ts) for a full save, sanitizeBody for quoin's own text. */
export type Clean = (text: string) => string;

function text(value: string | undefined, clean: Clean): string {
  return value && value.trim() !== "" ? clean(value) : "(none)";
}

/**
 * The sections every checkpoint starts with: who, what, where, when. `clean` is asciiBody for a
 * full save; the skeleton (prompt hook, precompact) passes sanitizeBody: its text is quoin's own,
 * and any-ascii's tables stay out of those bundles.
 */
function headSections(d: CheckpointData, clean: Clean): Section[] {
  return [
    { title: "Status", body: clean(d.status) },
    { title: "Current stage", body: text(d.currentStage, clean) },
    { title: "Active task", body: clean(d.task) },
    { title: "Branch", body: exactLine(d.branch) },
    ...(d.head !== undefined ? [{ title: "Head", body: d.head ?? NO_HEAD_LINE }] : []),
    { title: "Session ID", body: d.sessionId ?? "unknown" },
    { title: "Saved at", body: utcIso(d.savedAt) },
    { title: "Session link", body: sessionLinkLines(d.sessionId, d.projectHash) },
  ];
}

/** Notes (when any) and the restore hint close every checkpoint. */
function tailSections(d: CheckpointData, clean: Clean): Section[] {
  const notes: Section[] = d.notes?.length
    ? [{ title: "Notes", body: d.notes.map((n) => `- ${clean(n)}`).join("\n") }]
    : [];
  return [
    ...notes,
    { title: "Restore hint", body: restoreHint(clean(d.task), exactLine(d.branch)) },
  ];
}

/** The body sections, then the digest fitted into what the soft cap leaves, then notes and the hint. */
function withDigest(d: CheckpointData, body: readonly Section[], clean: Clean): string {
  const tail = tailSections(d, clean);
  let room = CHECKPOINT_SOFT_CAP_BYTES - Buffer.byteLength(renderSections([...body, ...tail]));
  // The digest's headings and count lines are estimated; a second fit takes off what the first overshot.
  let text = "";
  for (let pass = 0; pass < 3; pass += 1) {
    text = renderSections([...body, ...digestSections(d.digest, room), ...tail]);
    const over = Buffer.byteLength(text) - CHECKPOINT_SOFT_CAP_BYTES;
    if (over <= 0 || !d.digest) break;
    room -= over;
  }
  return text;
}

const bullets = (items: readonly string[], clean: Clean) =>
  items.map((i) => `- ${clean(i).replace(/\n/g, " ")}`).join("\n");

/** The seed's full checkpoint format, with seed 001's plan, commits, next-up and blockers, and the digest. */
export function renderCheckpoint(d: CheckpointData, clean: Clean): string {
  const sections: Section[] = [
    ...headSections(d, clean),
    { title: "Last user intent", body: text(d.intent, clean) },
    { title: "Plan file", body: storedPath(d.planFile) },
    { title: "In-flight artifacts", body: artifactLines(d.artifacts) },
    { title: "Completed this session", body: commitLines(d.commits, clean) },
    ...(d.done?.length ? [{ title: "Done this session", body: bullets(d.done, clean) }] : []),
    { title: "In progress", body: text(d.inProgress, clean) },
    {
      title: "Next up",
      body: d.nextUp?.length
        ? d.nextUp
            .map(
              (n) => `- ${clean(n.item)} (prerequisites met? ${n.prerequisitesMet ? "yes" : "no"})`,
            )
            .join("\n")
        : "(none)",
    },
    {
      title: "Known blockers",
      body: d.blockers?.length ? d.blockers.map((b) => `- ${clean(b)}`).join("\n") : "None",
    },
    { title: "Open questions", body: text(d.openQuestions, clean) },
    { title: "Decisions made", body: text(d.decisions, clean) },
    { title: "Unfinished work", body: text(d.unfinished, clean) },
  ];
  return withDigest(d, sections, clean);
}

/**
 * The skeleton of step C2, the panic tier and precompact: cheap fields, and the digest when the
 * writer read one (`Last user intent` then holds the newest request, so a picker row can show it).
 */
export function renderSkeletonCheckpoint(d: CheckpointData): string {
  const intent: Section[] = d.intent
    ? [{ title: "Last user intent", body: text(d.intent, sanitizeBody) }]
    : [];
  // Commits only when the writer looked them up (session end does; the cheap writers run no git).
  const commits: Section[] = d.commits
    ? [{ title: "Completed this session", body: commitLines(d.commits, sanitizeBody) }]
    : [];
  return withDigest(
    d,
    [
      ...headSections(d, sanitizeBody),
      ...intent,
      { title: "In-flight artifacts", body: artifactLines(d.artifacts) },
      ...commits,
    ],
    sanitizeBody,
  );
}

function commitLines(commits: readonly CommitRef[] | undefined, clean: Clean): string {
  return commits?.length
    ? commits.map((c) => `- ${c.hash} ${clean(c.subject)}`).join("\n")
    : "(none)";
}

export interface ParsedCheckpoint {
  sections: Section[];
  status?: string;
  currentStage?: string;
  /** `## Active task`, first line, CR stripped; undefined when it cannot be parsed */
  task?: string;
  branch?: string;
  /** `## Head`: undefined when not recorded (older checkpoints), null when recorded as `(none)` */
  head?: string | null;
  /** undefined for legacy checkpoints without `## Session ID`; null when recorded as unknown */
  sessionId?: string | null;
  savedAt?: string;
  intent?: string;
  planFile?: string | null;
  artifacts: InFlightArtifacts;
  artifactPaths: string[];
  commits: CommitRef[];
  done: string[];
  inProgress?: string;
  nextUp: NextUp[];
  blockers: string[];
  openQuestions?: string;
  decisions?: string;
  unfinished?: string;
  /** the transcript digest's sections (empty when the checkpoint has none) */
  digest: ParsedDigest;
}

function listItems(body: string | undefined): string[] {
  if (!body) return [];
  return body
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^[-*\u2022]\s+/.test(l))
    .map((l) => l.replace(/^[-*\u2022]\s+/, "").trim());
}

function noneToUndefined(body: string | undefined): string | undefined {
  if (body === undefined) return undefined;
  const t = body.trim();
  return t === "" || t === "(none)" || t === NONE_FOUND ? undefined : t;
}

/** A stored path (exactLine), or null for "(none found)" and the like. */
function pathOrNull(value: string | undefined): string | null {
  if (!value) return null;
  const v = value.trim();
  return v === "" || v.startsWith("(") ? null : readExactLine(v);
}

function readBranch(line: string | undefined): string | undefined {
  return line === undefined ? undefined : readExactLine(line);
}

/** Parse any checkpoint, old or new; missing sections stay undefined, never throw. */
export function parseCheckpoint(textIn: string): ParsedCheckpoint {
  const sections = parseSections(textIn);
  const get = (t: string) => sectionBody(sections, t);

  const artifacts: InFlightArtifacts = { ...NO_ARTIFACTS };
  for (const item of listItems(get("In-flight artifacts"))) {
    const colon = item.indexOf(":");
    if (colon < 0) continue;
    const key = item.slice(0, colon).trim().toLowerCase();
    const value = item.slice(colon + 1).trim();
    if (key === "current-plan.md") artifacts.currentPlan = pathOrNull(value);
    else if (key === "architecture.md") artifacts.architecture = pathOrNull(value);
    else if (key === "latest critic-response") artifacts.criticResponse = pathOrNull(value);
    else if (key === "latest review") artifacts.review = pathOrNull(value);
    else if (key === "session-state") artifacts.sessionState = pathOrNull(value);
    else if (key === "session-state-resolution")
      artifacts.sessionStateResolution =
        value === "uuid-anchor" || value === "mtime-fallback" ? value : null;
  }
  const artifactPaths = [
    artifacts.currentPlan,
    artifacts.architecture,
    artifacts.criticResponse,
    artifacts.review,
    artifacts.sessionState,
  ].filter((p): p is string => p !== null);

  const sessionBody = get("Session ID");
  const sessionLine = firstLineOf(sessionBody);
  const commits: CommitRef[] = [];
  for (const item of listItems(get("Completed this session"))) {
    const m = /^([0-9a-f]{7,40})\b\s*(.*)$/i.exec(item) ?? /\b([0-9a-f]{7,40})\b/i.exec(item);
    if (m) commits.push({ hash: m[1]!, subject: (m[2] ?? item).trim() || item });
  }
  const nextUp: NextUp[] = listItems(get("Next up")).map((item) => {
    const m = /\(?prerequisites met\?\s*(yes|no)\)?/i.exec(item);
    return {
      item: item.replace(/\s*\(?prerequisites met\?\s*(yes|no)\)?\s*$/i, "").trim(),
      prerequisitesMet: m?.[1]?.toLowerCase() === "yes",
    };
  });
  const blockersBody = get("Known blockers");
  const blockers = listItems(blockersBody).filter((b) => b.toLowerCase() !== "none");

  return {
    sections,
    status: firstLineOf(get("Status")),
    currentStage: noneToUndefined(get("Current stage")),
    task: firstLineOf(get("Active task")),
    branch: readBranch(firstLineOf(get("Branch"))),
    head: readHeadLine(firstLineOf(get("Head"))),
    sessionId:
      sessionBody === undefined
        ? undefined
        : sessionLine && sessionLine !== "unknown"
          ? sessionLine
          : null,
    savedAt: firstLineOf(get("Saved at")),
    intent: noneToUndefined(get("Last user intent")),
    planFile: pathOrNull(firstLineOf(get("Plan file"))),
    artifacts,
    artifactPaths,
    commits,
    done: listItems(get("Done this session")),
    inProgress: noneToUndefined(get("In progress")),
    nextUp,
    blockers,
    openQuestions: noneToUndefined(get("Open questions")),
    decisions: noneToUndefined(get("Decisions made")),
    unfinished: noneToUndefined(get("Unfinished work")),
    digest: parseDigestSections(get),
  };
}

/** The seed's awk: the line after `## Active task`, CR stripped. Cheap; for pickers over many files. */
export function parseActiveTask(textIn: string): string | undefined {
  const lines = textIn.split("\n");
  for (let i = 0; i < lines.length; i += 1) {
    if (/^## Active task\s*$/.test((lines[i] ?? "").replace(/\r$/, ""))) {
      const next = (lines[i + 1] ?? "").replace(/\r$/, "").trim();
      return next === "" ? undefined : next;
    }
  }
  return undefined;
}
