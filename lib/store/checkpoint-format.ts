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
  CHECKPOINT_HARD_CAP_BYTES,
  CHECKPOINT_SOFT_CAP_BYTES,
  MODEL_CUT_ORDER,
  MODEL_FIELD_NOUN,
  type ModelField,
} from "./checkpoint-budget.ts";
import {
  completedBody,
  parseCommitBullet,
  parseOtherCommits,
  parseUncommitted,
  uncommittedBody,
  type CheckedCommit,
  type Handover,
  type UncommittedFile,
} from "./checkpoint-handover.ts";
import {
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
  /** the transcript digest; its floor is always kept, the rest fitted under the cap */
  digest?: CheckpointDigest | null;
  /** this session's commits checked against git, and its uncommitted files */
  handover?: Handover | null;
  /** the model's own document came with this save (/checkpoint --stdin-json): the 6 KB hard cap */
  modelDocument?: boolean;
  /** lines of the model's fields cut to fit the hard cap (set by the fit, not by callers) */
  cuts?: Partial<Record<ModelField, number>>;
}

/** The cap a checkpoint aims at: 6 KB when it holds the model's document, else the 4 KB soft cap. */
export function capOf(d: CheckpointData): number {
  return d.modelDocument ? CHECKPOINT_HARD_CAP_BYTES : CHECKPOINT_SOFT_CAP_BYTES;
}

/** A model field as the lines the fit removes from its end. */
function modelLines(d: CheckpointData, f: ModelField): string[] {
  const v = d[f];
  if (v === undefined) return [];
  if (typeof v === "string") return v.trim() === "" ? [] : v.split("\n");
  return [...v] as string[];
}

function withModelLines(d: CheckpointData, f: ModelField, lines: string[]): CheckpointData {
  const v = d[f];
  if (typeof v === "string") return { ...d, [f]: lines.join("\n") };
  return { ...d, [f]: lines };
}

/**
 * One step of the fit on field `f`: a long last line is halved, else the last line goes (counted).
 * Returns null when the field has no line left to cut.
 */
function cutOnce(
  x: CheckpointData,
  f: ModelField,
  cuts: Partial<Record<ModelField, number>>,
): CheckpointData | null {
  const lines = modelLines(x, f);
  const last = lines.at(-1);
  if (last === undefined) return null;
  if (last.length > LONG_LINE)
    return withModelLines(x, f, [
      ...lines.slice(0, -1),
      `${last.slice(0, Math.floor(last.length / 2))}...`,
    ]);
  cuts[f] = (cuts[f] ?? 0) + 1;
  return { ...withModelLines(x, f, lines.slice(0, -1)), cuts: { ...cuts } };
}

/**
 * The model's fields cut until `fits`; each cut field ends with its count ("+3 more decisions
 * (cut to fit 6 KB)"). First in rounds, one line from the end of each field that has more than
 * one, in MODEL_CUT_ORDER: every field keeps its first line (the first decision, the first open
 * question) while a long list gives up its tail. Only then are whole fields emptied, in the same
 * order. The floor is outside these fields.
 */
function fitModelFields(d: CheckpointData, fits: (x: CheckpointData) => boolean): CheckpointData {
  let x = d;
  const cuts: Partial<Record<ModelField, number>> = {};
  for (let trimmed = true; trimmed && !fits(x); ) {
    trimmed = false;
    for (const f of MODEL_CUT_ORDER) {
      if (fits(x)) break;
      const lines = modelLines(x, f);
      if (lines.length < 2 && !(lines.length === 1 && lines[0]!.length > LONG_LINE)) continue;
      const next = cutOnce(x, f, cuts);
      if (next) [x, trimmed] = [next, true];
    }
  }
  for (const f of MODEL_CUT_ORDER) {
    while (!fits(x)) {
      const next = cutOnce(x, f, cuts);
      if (!next) break;
      x = next;
    }
    if (fits(x)) break;
  }
  return x;
}

const LONG_LINE = 400;

const capLabel = (_d: CheckpointData) => `${Math.round(CHECKPOINT_HARD_CAP_BYTES / 1024)} KB`;

/** "+3 more decisions (cut to fit 6 KB)" for a field the fit cut, else nothing. */
function cutLine(d: CheckpointData, f: ModelField): string[] {
  const n = d.cuts?.[f];
  return n ? [`+${n} more ${MODEL_FIELD_NOUN[f]} (cut to fit ${capLabel(d)})`] : [];
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

/** A model field's text with its cut count. */
function modelText(d: CheckpointData, f: ModelField, clean: Clean): string {
  const v = d[f] as string | undefined;
  const cut = cutLine(d, f);
  if (!cut.length) return text(v, clean);
  return [...(v && v.trim() !== "" ? [clean(v)] : []), ...cut].join("\n");
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

/**
 * The body sections, then the digest, then notes and the hint: the digest's floor always, the
 * model's fields cut to fit the cap around it, then the rest of the digest in what is left.
 */
function withDigest(
  d0: CheckpointData,
  bodyOf: (d: CheckpointData) => Section[],
  clean: Clean,
): string {
  const cap = capOf(d0);
  const tail = tailSections(d0, clean);
  const floor = digestSections(d0.digest, 0);
  // The model's fields (or a session-state file's) are cut only past the hard cap; the rest of
  // the digest fills up to the checkpoint's own cap.
  const d = fitModelFields(
    d0,
    (x) =>
      Buffer.byteLength(renderSections([...bodyOf(x), ...floor, ...tail])) <=
      CHECKPOINT_HARD_CAP_BYTES,
  );
  const body = bodyOf(d);
  let room = cap - Buffer.byteLength(renderSections([...body, ...tail]));
  // The digest's headings and count lines are estimated; a second fit takes off what the first overshot.
  let text = "";
  for (let pass = 0; pass < 3; pass += 1) {
    text = renderSections([...body, ...digestSections(d.digest, room), ...tail]);
    const over = Buffer.byteLength(text) - cap;
    if (over <= 0 || !d.digest) return text;
    room -= over;
  }
  // Still over after three fits: the floor alone.
  return renderSections([...body, ...digestSections(d.digest, 0), ...tail]);
}

const bullets = (items: readonly string[], clean: Clean) =>
  items.map((i) => `- ${clean(i).replace(/\n/g, " ")}`).join("\n");

const withCut = (d: CheckpointData, f: ModelField, body: string) =>
  [body, ...cutLine(d, f)].join("\n");

/** `## Completed this session` (the one section) and, when known, `## Uncommitted`. */
function handoverSections(d: CheckpointData, clean: Clean): Section[] {
  if (!d.handover)
    return [{ title: "Completed this session", body: commitLines(d.commits, clean) }];
  const uncommitted: Section[] = d.handover.uncommitted
    ? [{ title: "Uncommitted", body: uncommittedBody(d.handover.uncommitted) }]
    : [];
  return [
    { title: "Completed this session", body: completedBody(d.handover, clean) },
    ...uncommitted,
  ];
}

function nextUpBody(d: CheckpointData, clean: Clean): string {
  const lines = (d.nextUp ?? []).map(
    (n) => `- ${clean(n.item)} (prerequisites met? ${n.prerequisitesMet ? "yes" : "no"})`,
  );
  return withCut(d, "nextUp", lines.join("\n") || "(none)");
}

/** The model's sections of a full save, each with its cut count. */
function modelSections(d: CheckpointData, clean: Clean): Section[] {
  const done = d.done?.length || d.cuts?.done;
  return [
    ...(done
      ? [{ title: "Done this session", body: withCut(d, "done", bullets(d.done ?? [], clean)) }]
      : []),
    { title: "In progress", body: modelText(d, "inProgress", clean) },
    { title: "Next up", body: nextUpBody(d, clean) },
    {
      title: "Known blockers",
      body: withCut(
        d,
        "blockers",
        d.blockers?.length ? d.blockers.map((b) => `- ${clean(b)}`).join("\n") : "None",
      ),
    },
    { title: "Open questions", body: modelText(d, "openQuestions", clean) },
    { title: "Decisions made", body: modelText(d, "decisions", clean) },
    { title: "Unfinished work", body: modelText(d, "unfinished", clean) },
  ];
}

/** The seed's full checkpoint format, with seed 001's plan, commits, next-up and blockers, and the digest. */
export function renderCheckpoint(d: CheckpointData, clean: Clean): string {
  return withDigest(
    d,
    (x) => [
      ...headSections(x, clean),
      { title: "Last user intent", body: text(x.intent, clean) },
      { title: "Plan file", body: storedPath(x.planFile) },
      { title: "In-flight artifacts", body: artifactLines(x.artifacts) },
      ...handoverSections(x, clean),
      ...modelSections(x, clean),
    ],
    clean,
  );
}

/**
 * The skeleton of step C2 (the block tier's forced save), the panic tier and precompact: cheap
 * fields, and the digest when the writer read one (`Last user intent` then holds the newest
 * request, so a picker row can show it).
 */
export function renderSkeletonCheckpoint(d: CheckpointData): string {
  const intent: Section[] = d.intent
    ? [{ title: "Last user intent", body: text(d.intent, sanitizeBody) }]
    : [];
  // Commits when the writer has them: from the transcript (checked against git or marked
  // unchecked), or from git alone; the plain skeleton has none.
  const commits: Section[] = d.handover || d.commits ? handoverSections(d, sanitizeBody) : [];
  const body = [
    ...headSections(d, sanitizeBody),
    ...intent,
    { title: "In-flight artifacts", body: artifactLines(d.artifacts) },
    ...commits,
  ];
  return withDigest(d, () => body, sanitizeBody);
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
  /** the commits with their state (present, rebased, not in this clone, unchecked) */
  checkedCommits: CheckedCommit[];
  /** "N other commits since this session started"; null when not recorded */
  otherCommits: number | null;
  /** `## Uncommitted`; null when the checkpoint has no such section */
  uncommitted: UncommittedFile[] | null;
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

/** `## Completed this session`: the commits, and those with their state
 * (present, rebased, not in this clone). */
function parseCompleted(body: string | undefined): {
  commits: CommitRef[];
  checkedCommits: CheckedCommit[];
} {
  const commits: CommitRef[] = [];
  const checkedCommits: CheckedCommit[] = [];
  for (const item of listItems(body)) {
    const checked = parseCommitBullet(item);
    if (checked) {
      checkedCommits.push(checked);
      commits.push({ hash: checked.hash, subject: checked.subject });
      continue;
    }
    const m = /\b([0-9a-f]{7,40})\b/i.exec(item);
    if (m) commits.push({ hash: m[1]!, subject: item });
  }
  return { commits, checkedCommits };
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
  const { commits, checkedCommits } = parseCompleted(get("Completed this session"));
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
    checkedCommits,
    otherCommits: parseOtherCommits(get("Completed this session")),
    uncommitted: parseUncommitted(get("Uncommitted")),
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
