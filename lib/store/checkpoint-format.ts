import { firstLineOf, parseSections, renderSections, sanitizeBody, sectionBody, type Section } from "../core/markdown-sections.ts";
import { utcIso } from "../core/time-format.ts";
import { CHECKPOINT_SOFT_CAP_BYTES, digestSections, parseDigestSections, type CheckpointDigest, type ParsedDigest } from "./checkpoint-digest.ts";

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

function artifactLines(a: InFlightArtifacts): string {
  return [
    `- current-plan.md: ${a.currentPlan ?? NONE_FOUND}`,
    `- architecture.md: ${a.architecture ?? NONE_FOUND}`,
    `- latest critic-response: ${a.criticResponse ?? NONE_FOUND}`,
    `- latest review: ${a.review ?? NONE_FOUND}`,
    `- session-state: ${a.sessionState ?? NONE_FOUND}`,
    `- session-state-resolution: ${a.sessionStateResolution ?? "(none)"}`,
  ].join("\n");
}

function sessionLinkLines(sessionId: string | null, projectHash: string): string {
  if (!sessionId) return "- Resume: (session UUID unavailable)\n- JSONL: (session UUID unavailable)";
  return `- Resume: claude --resume ${sessionId}\n- JSONL: ~/.claude/projects/${projectHash}/${sessionId}.jsonl`;
}

function restoreHint(task: string, branch: string): string {
  return `Run /checkpoint --restore in a fresh session to resume task '${task}' from branch '${branch}'.`;
}

function text(value: string | undefined): string {
  return value && value.trim() !== "" ? sanitizeBody(value) : "(none)";
}

/** The sections every checkpoint starts with: who, what, where, when. */
function headSections(d: CheckpointData): Section[] {
  return [
    { title: "Status", body: sanitizeBody(d.status) },
    { title: "Current stage", body: text(d.currentStage) },
    { title: "Active task", body: sanitizeBody(d.task) },
    { title: "Branch", body: sanitizeBody(d.branch) },
    { title: "Session ID", body: d.sessionId ?? "unknown" },
    { title: "Saved at", body: utcIso(d.savedAt) },
    { title: "Session link", body: sessionLinkLines(d.sessionId, d.projectHash) },
  ];
}

/** Notes (when any) and the restore hint close every checkpoint. */
function tailSections(d: CheckpointData): Section[] {
  const notes: Section[] = d.notes?.length ? [{ title: "Notes", body: d.notes.map((n) => `- ${sanitizeBody(n)}`).join("\n") }] : [];
  return [...notes, { title: "Restore hint", body: restoreHint(sanitizeBody(d.task), sanitizeBody(d.branch)) }];
}

/** The body sections, then the digest fitted into what the soft cap leaves, then notes and the hint. */
function withDigest(d: CheckpointData, body: readonly Section[]): string {
  const tail = tailSections(d);
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

const bullets = (items: readonly string[]) => items.map((i) => `- ${sanitizeBody(i).replace(/\n/g, " ")}`).join("\n");

/** The seed's full checkpoint format, with seed 001's plan, commits, next-up and blockers, and the digest. */
export function renderCheckpoint(d: CheckpointData): string {
  const sections: Section[] = [
    ...headSections(d),
    { title: "Last user intent", body: text(d.intent) },
    { title: "Plan file", body: d.planFile ? sanitizeBody(d.planFile) : NONE_FOUND },
    { title: "In-flight artifacts", body: artifactLines(d.artifacts) },
    { title: "Completed this session", body: commitLines(d.commits) },
    ...(d.done?.length ? [{ title: "Done this session", body: bullets(d.done) }] : []),
    { title: "In progress", body: text(d.inProgress) },
    {
      title: "Next up",
      body: d.nextUp?.length
        ? d.nextUp.map((n) => `- ${sanitizeBody(n.item)} (prerequisites met? ${n.prerequisitesMet ? "yes" : "no"})`).join("\n")
        : "(none)",
    },
    { title: "Known blockers", body: d.blockers?.length ? d.blockers.map((b) => `- ${sanitizeBody(b)}`).join("\n") : "None" },
    { title: "Open questions", body: text(d.openQuestions) },
    { title: "Decisions made", body: text(d.decisions) },
    { title: "Unfinished work", body: text(d.unfinished) },
  ];
  return withDigest(d, sections);
}

/**
 * The skeleton of step C2, the panic tier and precompact: cheap fields, and the digest when the
 * writer read one (`Last user intent` then holds the newest request, so a picker row can show it).
 */
export function renderSkeletonCheckpoint(d: CheckpointData): string {
  const intent: Section[] = d.intent ? [{ title: "Last user intent", body: text(d.intent) }] : [];
  // Commits only when the writer looked them up (session end does; the cheap writers run no git).
  const commits: Section[] = d.commits ? [{ title: "Completed this session", body: commitLines(d.commits) }] : [];
  return withDigest(d, [...headSections(d), ...intent, { title: "In-flight artifacts", body: artifactLines(d.artifacts) }, ...commits]);
}

function commitLines(commits: readonly CommitRef[] | undefined): string {
  return commits?.length ? commits.map((c) => `- ${c.hash} ${sanitizeBody(c.subject)}`).join("\n") : "(none)";
}

export interface ParsedCheckpoint {
  sections: Section[];
  status?: string;
  currentStage?: string;
  /** `## Active task`, first line, CR stripped; undefined when it cannot be parsed */
  task?: string;
  branch?: string;
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

function pathOrNull(value: string | undefined): string | null {
  if (!value) return null;
  const v = value.trim();
  return v === "" || v.startsWith("(") ? null : v;
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
      artifacts.sessionStateResolution = value === "uuid-anchor" || value === "mtime-fallback" ? value : null;
  }
  const artifactPaths = [artifacts.currentPlan, artifacts.architecture, artifacts.criticResponse, artifacts.review, artifacts.sessionState].filter(
    (p): p is string => p !== null,
  );

  const sessionBody = get("Session ID");
  const sessionLine = firstLineOf(sessionBody);
  const commits: CommitRef[] = [];
  for (const item of listItems(get("Completed this session"))) {
    const m = /^([0-9a-f]{7,40})\b\s*(.*)$/i.exec(item) ?? /\b([0-9a-f]{7,40})\b/i.exec(item);
    if (m) commits.push({ hash: m[1]!, subject: (m[2] ?? item).trim() || item });
  }
  const nextUp: NextUp[] = listItems(get("Next up")).map((item) => {
    const m = /\(?prerequisites met\?\s*(yes|no)\)?/i.exec(item);
    return { item: item.replace(/\s*\(?prerequisites met\?\s*(yes|no)\)?\s*$/i, "").trim(), prerequisitesMet: m?.[1]?.toLowerCase() === "yes" };
  });
  const blockersBody = get("Known blockers");
  const blockers = listItems(blockersBody).filter((b) => b.toLowerCase() !== "none");

  return {
    sections,
    status: firstLineOf(get("Status")),
    currentStage: noneToUndefined(get("Current stage")),
    task: firstLineOf(get("Active task")),
    branch: firstLineOf(get("Branch")),
    sessionId: sessionBody === undefined ? undefined : sessionLine && sessionLine !== "unknown" ? sessionLine : null,
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
