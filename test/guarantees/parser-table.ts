import fc from "fast-check";
import { createFsFromVolume, Volume } from "memfs";
import type { FsApi } from "../../lib/core/deps.ts";
import { readKnobs } from "../../lib/core/knobs.ts";
import { exactLine } from "../../lib/core/markdown-sections.ts";
import { locateJson } from "../../lib/core/json-locate.ts";
import { readTranscriptTail } from "../../lib/context/transcript-tail.ts";
import { parseHookInput } from "../../lib/hooks/hook-io.ts";
import {
  existingHookContainers,
  mergeInstall,
  mergeUninstall,
} from "../../lib/install/settings-merge.ts";
import { ownedHookCommands } from "../../lib/install/settings-owned.ts";
import { ownedHooks } from "../../lib/install/install-layout.ts";
import { parseReplaySelection } from "../../lib/restore/prompt-replay.ts";
import { parseSaveDocument } from "../../lib/save/save-document.ts";
import {
  renderCheckpoint,
  renderSkeletonCheckpoint,
  type CheckpointData,
} from "../../lib/store/checkpoint-format.ts";
import { parseActiveTask, parseCheckpoint } from "../../lib/store/checkpoint-parse.ts";
import { NO_ARTIFACTS } from "../../lib/store/checkpoint-values.ts";
import { parseCheckpointName } from "../../lib/store/checkpoint-names.ts";
import { findMidAgentHandoff } from "../../lib/store/mid-agent-handoff.ts";
import { appendBlockedPrompt, parseBlockedPrompts } from "../../lib/store/pending-prompts.ts";
import { lastSeen } from "../../lib/store/recent-sessions.ts";
import { cachedFields, HEAD_CACHE_FILE, openHeadCache } from "../../lib/restore/head-cache.ts";
import { intentFromUnfinished, parseSessionState } from "../../lib/store/session-state.ts";
import {
  parseKeyValues,
  parseSentinelName,
  renderKeyValues,
  SENTINEL_FAMILIES,
} from "../../lib/store/sentinels.ts";
import { hostileString, hugeString, REAL_LINES, SIDS, transcriptText } from "./fuzz-world.ts";
import { HOOKS } from "./tables.ts";
import { asciiBody } from "../../lib/core/ascii-text.ts";

// Every parser of text that reaches quoin from disk, stdin or a person, as one row each: an
// arbitrary of inputs (realistic documents, mutated; random text; huge text) and what must hold.
// A new parser is one row here; the fuzz suite runs each row's cases and counts them.

export interface ParserRow<T = unknown> {
  name: string;
  input: fc.Arbitrary<T>;
  /** run the parser; throws when an invariant does not hold (no exception may escape a parser) */
  check: (x: T) => void;
  cases: number;
}

/** A realistic text, then broken: cut short, spliced with hostile text, lines repeated, CRLF. */
export function mutated(sample: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: sample },
    {
      weight: 2,
      arbitrary: fc
        .tuple(sample, fc.double({ min: 0, max: 1, noNaN: true }))
        .map(([s, f]) => s.slice(0, Math.floor(s.length * f))),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(sample, fc.double({ min: 0, max: 1, noNaN: true }), hostileString)
        .map(([s, f, h]) => {
          const at = Math.floor(s.length * f);
          return s.slice(0, at) + h + s.slice(at);
        }),
    },
    { weight: 1, arbitrary: sample.map((s) => s.replace(/\n/g, "\r\n")) },
    {
      weight: 1,
      arbitrary: fc.tuple(sample, fc.nat(20)).map(([s, n]) =>
        s
          .split("\n")
          .flatMap((l, i) => (i === n ? [l, l] : [l]))
          .join("\n"),
      ),
    },
    { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 300 }) },
    { weight: 1, arbitrary: hugeString(10_000, 40_000) },
  );
}

// Strings the checkpoint format keeps as they are: printable ASCII with no heading, list or
// parenthesis trick at the start, no space at either end.
const cleanWord = fc.stringMatching(/^[A-Za-z0-9_.,:;'"=+/-]{1,12}$/);
const cleanLine = fc
  .array(cleanWord, { minLength: 1, maxLength: 6 })
  .map((ws) => ws.join(" "))
  .filter((s) => !/^[-*(]/.test(s) && !/^none$/i.test(s) && !/^\d/.test(s));
const cleanText = fc.array(cleanLine, { minLength: 1, maxLength: 4 }).map((ls) => ls.join("\n"));
const hex = fc.stringMatching(/^[0-9a-f]{7,40}$/);
const isoDate = fc
  .date({
    min: new Date("2000-01-01T00:00:00Z"),
    max: new Date("2099-12-31T23:59:00Z"),
    noInvalidDate: true,
  })
  .map((d) => new Date(Math.floor(d.getTime() / 1000) * 1000));

/** A checkpoint whose every field survives the format: parse(render(x)) must give x back. */
export const checkpointData: fc.Arbitrary<CheckpointData> = fc.record({
  status: cleanLine,
  currentStage: cleanText,
  task: cleanLine,
  branch: cleanLine,
  sessionId: fc.oneof(fc.constantFrom(...SIDS), fc.uuid(), fc.constant(null)),
  projectHash: fc.constant("-home-u-proj"),
  savedAt: isoDate,
  intent: cleanText,
  planFile: fc.option(
    cleanLine.map((l) => `/home/u/proj/${l.replace(/\s+/g, "-")}`),
    { nil: null },
  ),
  artifacts: fc.record({
    currentPlan: fc.option(cleanLine, { nil: null }),
    architecture: fc.option(cleanLine, { nil: null }),
    criticResponse: fc.option(cleanLine, { nil: null }),
    review: fc.option(cleanLine, { nil: null }),
    sessionState: fc.option(cleanLine, { nil: null }),
    sessionStateResolution: fc.constantFrom(
      "uuid-anchor" as const,
      "mtime-fallback" as const,
      null,
    ),
  }),
  commits: fc.array(fc.record({ hash: hex, subject: cleanLine }), { maxLength: 4 }),
  inProgress: cleanText,
  nextUp: fc.array(
    fc.record({
      item: cleanLine.filter((l) => !/prerequisites met/i.test(l)),
      prerequisitesMet: fc.boolean(),
    }),
    { maxLength: 4 },
  ),
  blockers: fc.array(cleanLine, { maxLength: 3 }),
  openQuestions: cleanText,
  decisions: cleanText,
  unfinished: cleanText,
});

/** Any checkpoint data at all: hostile text in every field. */
const anyCheckpointData: fc.Arbitrary<CheckpointData> = fc.record({
  status: hostileString,
  currentStage: hostileString,
  task: hostileString,
  branch: hostileString,
  sessionId: fc.oneof(fc.constantFrom(...SIDS), fc.constant(null)),
  projectHash: fc.constant("-home-u-proj"),
  savedAt: isoDate,
  intent: fc.option(hostileString, { nil: undefined }),
  planFile: fc.option(hostileString, { nil: null }),
  artifacts: fc.constant(NO_ARTIFACTS),
  commits: fc.array(fc.record({ hash: hex, subject: hostileString }), { maxLength: 3 }),
  inProgress: fc.option(hostileString, { nil: undefined }),
  nextUp: fc.array(fc.record({ item: hostileString, prerequisitesMet: fc.boolean() }), {
    maxLength: 3,
  }),
  blockers: fc.array(hostileString, { maxLength: 3 }),
  notes: fc.array(hostileString, { maxLength: 2 }),
});

function fail(what: string, got: unknown, want: unknown): never {
  throw new Error(
    `${what}: got ${JSON.stringify(got)?.slice(0, 400)}, want ${JSON.stringify(want)?.slice(0, 400)}`,
  );
}
function same(what: string, got: unknown, want: unknown): void {
  if (JSON.stringify(got) !== JSON.stringify(want)) fail(what, got, want);
}

/** parse(render(d)) gives d back, field by field. */
export function checkRoundTrip(d: CheckpointData): void {
  const p = parseCheckpoint(renderCheckpoint(d, asciiBody).text);
  same("status", p.status, d.status);
  same("currentStage", p.currentStage, d.currentStage);
  same("task", p.task, d.task);
  same("branch", p.branch, d.branch);
  same("sessionId", p.sessionId, d.sessionId);
  same("savedAt", p.savedAt, d.savedAt.toISOString().replace(/\.\d{3}Z$/, "Z"));
  same("intent", p.intent, d.intent);
  same("planFile", p.planFile, d.planFile);
  same("artifacts", p.artifacts, d.artifacts);
  same("commits", p.commits, d.commits);
  same("inProgress", p.inProgress, d.inProgress);
  same("nextUp", p.nextUp, d.nextUp);
  same("blockers", p.blockers, d.blockers);
  same("openQuestions", p.openQuestions, d.openQuestions);
  same("decisions", p.decisions, d.decisions);
  same("unfinished", p.unfinished, d.unfinished);
  same("parseActiveTask", parseActiveTask(renderCheckpoint(d, asciiBody).text), d.task);
}

/** Hostile fields: the render is one heading per section (nothing forged), and parse is a fixpoint. */
function checkHostileCheckpoint(d: CheckpointData): void {
  for (const render of [
    (x: CheckpointData) => renderCheckpoint(x, asciiBody).text,
    renderSkeletonCheckpoint,
  ]) {
    const text = render(d);
    // Paths and the branch are stored exactly, so a restore names the same ones (non-ASCII kept,
    // control characters escaped); everything else is ASCII. No control byte anywhere.
    if (/[\x00-\x08\x0B-\x1F\x7F]/.test(text))
      fail("control byte in a checkpoint", text.match(/[\x00-\x08\x0B-\x1F\x7F]/)?.[0], "none");
    // (longest first: a lone surrogate branch is a substring of a plan file's surrogate pairs)
    const exact = [d.branch, d.planFile]
      .filter((v): v is string => typeof v === "string")
      // a branch's trailing blanks are not kept (git allows none in a ref name)
      .flatMap((v) => [exactLine(v), exactLine(v.trimEnd())]);
    const free = exact
      .sort((x, y) => y.length - x.length)
      .reduce((t, v) => t.split(v).join(""), text);
    const at = free.search(/[^\x09\x0A\x20-\x7E]/);
    if (at >= 0)
      fail(
        "non-ASCII outside an exact path or branch",
        free.slice(Math.max(0, at - 80), at + 20),
        "none",
      );
    const parsed = parseCheckpoint(text);
    const titles = parsed.sections.map((s) => s.title);
    if (new Set(titles).size !== titles.length)
      fail("a section heading was forged", titles, "each title once");
    if (parsed.sessionId !== d.sessionId) fail("session id", parsed.sessionId, d.sessionId);
  }
}

const checkpointSample = fc.oneof(
  checkpointData.map((x) => renderCheckpoint(x, asciiBody).text),
  anyCheckpointData.map(renderSkeletonCheckpoint),
);
const sessionStateSample = fc
  .record({ phase: cleanLine, stage: cleanText, uuid: fc.uuid(), unfinished: cleanText })
  .map(
    (s) =>
      `# Session\n## Cost\n- Phase: ${s.phase}\n## Current stage\n${s.stage}\n- Session UUID: ${s.uuid}\n## Unfinished work\n- 1. \u23F3 ${s.unfinished}\n`,
  );
const settingsSample = fc
  .record({
    model: fc.option(fc.constantFrom("claude-sonnet-4-5[1m]", "opus"), { nil: undefined }),
    hooks: fc.option(
      fc.dictionary(
        fc.constantFrom("UserPromptSubmit", "SessionStart", "PreCompact", "Stop", "SessionEnd"),
        fc.array(
          fc.record({
            hooks: fc.array(
              fc.record({
                type: fc.constant("command"),
                command: fc.constantFrom("echo hi", "node /x/y.mjs"),
              }),
              { maxLength: 2 },
            ),
          }),
          { maxLength: 2 },
        ),
      ),
      { nil: undefined },
    ),
    statusLine: fc.option(
      fc.record({
        type: fc.constant("command"),
        command: fc.constantFrom("echo status", "~/bin/sl"),
      }),
      { nil: undefined },
    ),
    extra: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), {
      maxKeys: 3,
    }),
  })
  .map(({ extra, ...rest }) =>
    JSON.stringify(
      { ...extra, ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) },
      null,
      2,
    ),
  );
const blockedPrompts = fc.array(
  fc.oneof(
    hostileString,
    fc.constant(" === BLOCKED PROMPT [x] ==="),
    fc.constant("=== BLOCKED PROMPT [2026-11-29T00:00:00Z] ===\nforged"),
  ),
  { minLength: 1, maxLength: 4 },
);

const tinyVol = new Volume();
const tinyFs = createFsFromVolume(tinyVol) as unknown as FsApi;
function onDisk(files: Record<string, string>): FsApi {
  tinyVol.reset();
  tinyVol.fromJSON(files);
  return tinyFs;
}

const SETTINGS_HOOKS = ownedHooks(
  "/home/u/.claude/quoin-checkpoint",
  HOOKS.map((h) => h.bundle),
);

export const PARSERS: readonly ParserRow<never>[] = [
  { name: "checkpoint round trip", input: checkpointData, check: checkRoundTrip, cases: 10_000 },
  {
    name: "checkpoint render, hostile fields",
    input: anyCheckpointData,
    check: checkHostileCheckpoint,
    cases: 4_000,
  },
  {
    name: "checkpoint file",
    input: mutated(checkpointSample),
    check: (t: string) => {
      parseCheckpoint(t);
      parseActiveTask(t);
    },
    cases: 8_000,
  },
  {
    name: "checkpoint file name",
    input: fc.oneof(
      hostileString,
      fc.constantFrom("2026-11-29T0930-t.md", "2026-11-29-t-precompact.md", "2026-11-29-t.md"),
    ),
    check: (n: string) => void parseCheckpointName(n),
    cases: 3_000,
  },
  {
    name: "session-state file",
    input: mutated(sessionStateSample),
    check: (t: string) => {
      const s = parseSessionState("/m/sessions/2026-11-29-x.md", t);
      intentFromUnfinished(s.unfinished);
    },
    cases: 6_000,
  },
  {
    name: "sentinel file name (every family)",
    input: fc
      .tuple(
        fc.constantFrom(...SENTINEL_FAMILIES),
        fc.oneof(fc.constantFrom(...SIDS), hostileString),
      )
      .map(([f, s]) => `${f}-${s}.txt`),
    check: (n: string) => {
      const p = parseSentinelName(n);
      if (p && p.sid !== "" && !/^[A-Za-z0-9-]{1,128}$/.test(p.sid) && p.sid.length <= 128)
        fail("sentinel sid", p.sid, "a usable id");
    },
    cases: 5_000,
  },
  {
    name: "sentinel key=value text",
    input: fc.oneof(
      mutated(fc.dictionary(fc.stringMatching(/^[a-z_]{1,12}$/), cleanLine).map(renderKeyValues)),
      hostileString,
    ),
    check: (t: string) => void parseKeyValues(t),
    cases: 6_000,
  },
  {
    name: "sentinel key=value round trip",
    // Keys are quoin's own names; `__proto__` is no key any sentinel has (and parses to nothing).
    input: fc.dictionary(
      fc.stringMatching(/^[a-z_]{1,12}$/).filter((k) => k !== "__proto__"),
      cleanLine,
      { maxKeys: 5 },
    ),
    check: (kv: Record<string, string>) =>
      same("key=value", parseKeyValues(renderKeyValues(kv)), kv),
    cases: 3_000,
  },
  {
    name: "mid-agent-handoff sentinel",
    input: mutated(
      fc
        .record({ p: fc.oneof(fc.constantFrom(...SIDS), hostileString), t: hostileString })
        .map(({ p, t }) => `prior_session_uuid=${p}\ntask_name=${t}\n`),
    ),
    check: (t: string) => {
      const h = findMidAgentHandoff(
        onDisk({ [`/m/mid-agent-handoff-${SIDS[0]}.txt`]: t }),
        "/m",
        SIDS[0],
        Date.parse("2026-11-29T12:00:00Z"),
        7,
      );
      if (h && !/^[A-Za-z0-9-]{1,128}$/.test(h.prior_session_uuid))
        fail("handoff uuid", h.prior_session_uuid, "a usable id");
    },
    cases: 3_000,
  },
  {
    name: "pending-prompt file",
    input: mutated(
      blockedPrompts.map(
        (ps) =>
          ps.reduce<string | null>(
            (acc, p) => appendBlockedPrompt(acc, p, "2026-11-29T12:00:00Z"),
            null,
          ) ?? "",
      ),
    ),
    check: (t: string) => void parseBlockedPrompts(t),
    cases: 6_000,
  },
  {
    name: "pending-prompt round trip",
    input: blockedPrompts,
    check: (ps: string[]) => {
      const text =
        ps.reduce<string | null>(
          (acc, p) => appendBlockedPrompt(acc, p, "2026-11-29T12:00:00Z"),
          null,
        ) ?? "";
      const back = parseBlockedPrompts(text).map((e) => e.text);
      same(
        "blocked prompts",
        back,
        ps.map((p) => p.replace(/\r\n/g, "\n").trim()),
      );
    },
    cases: 4_000,
  },
  {
    name: "settings.json install/uninstall",
    input: mutated(settingsSample),
    check: (t: string) => {
      const installed = mergeInstall(t, {
        hooks: SETTINGS_HOOKS,
        statusLine: 'node "/home/u/.claude/quoin-checkpoint/statusline.cjs"',
      });
      ownedHookCommands(t);
      if (!installed.ok) return;
      const parsed = (() => {
        try {
          return { ok: true as const, v: JSON.parse(t) as unknown };
        } catch {
          return { ok: false as const };
        }
      })();
      if (!parsed.ok) fail("install accepted text JSON.parse refuses", t.slice(0, 200), "refused");
      JSON.parse(installed.text);
      const removed = mergeUninstall(installed.text, "settings.json", existingHookContainers(t));
      if (!removed.ok) fail("uninstall refused its own install", removed.reason, "ok");
      same("uninstall(install(x))", JSON.parse(removed.text), parsed.v);
    },
    cases: 5_000,
  },
  {
    name: "JSON locator (settings.json)",
    input: fc.oneof(fc.json(), hostileString, mutated(settingsSample)),
    check: (t: string) => void locateJson(t),
    cases: 4_000,
  },
  {
    name: "transcript lines (tail reader)",
    input: mutated(transcriptText),
    check: (t: string) => {
      const r = readTranscriptTail(onDisk({ "/t.jsonl": t }), "/t.jsonl", {
        bytesPerToken: 8,
        initialChunk: 64,
      });
      if (!r || !Number.isFinite(r.tokens) || r.tokens < 0)
        fail("tail reading", r, "finite tokens >= 0");
    },
    cases: 6_000,
  },
  {
    name: "recent-sessions.md",
    input: mutated(
      fc
        .array(fc.tuple(isoDate, fc.constantFrom(...SIDS)), { maxLength: 8 })
        .map((ls) => ls.map(([d, s]) => `${d.toISOString()} | ${s}\n`).join("")),
    ),
    check: (t: string) => void lastSeen(onDisk({ "/r.md": t }), "/r.md", SIDS[0]),
    cases: 3_000,
  },
  {
    name: "checkpoint head cache (checkpoint-heads.json)",
    input: fc.oneof(
      mutated(
        fc
          .dictionary(
            fc.oneof(fc.constantFrom("2026-11-29T0930-t.md", "a.md"), hostileString),
            fc.tuple(
              fc.double(),
              fc.nat(),
              fc.nat(),
              fc.option(hostileString),
              fc.option(hostileString),
              fc.option(hostileString),
              fc.oneof(fc.constant(false), fc.option(hostileString)),
              fc.option(hostileString),
              fc.option(hostileString),
              fc.option(hostileString),
            ),
            { maxKeys: 5 },
          )
          .map((entries) => JSON.stringify({ version: 2, entries })),
      ),
      fc.json(),
    ),
    check: (t: string) => {
      const cache = openHeadCache(onDisk({ [`/m/${HEAD_CACHE_FILE}`]: t }), "/m");
      for (const [name, e] of cache.entries) {
        const f = cachedFields(cache, { name, mtimeMs: e[0], size: e[1], ino: e[2] });
        const strings = [
          f?.status,
          f?.task,
          f?.branch,
          f?.intent,
          f?.sessionId,
          f?.working,
          f?.lastWord,
        ].filter((v) => v !== undefined && v !== null);
        if (!f || strings.some((v) => typeof v !== "string" || v.length > 2048))
          fail("head cache", f, "fields of strings up to 2048 characters");
      }
    },
    cases: 3_000,
  },
  {
    name: "save --stdin-json document",
    input: fc.oneof(
      mutated(
        fc
          .record({
            intent: fc.option(hostileString, { nil: undefined }),
            blockers: fc.option(fc.array(hostileString), { nil: undefined }),
            nextUp: fc.option(
              fc.array(fc.record({ item: hostileString, prerequisitesMet: fc.boolean() })),
              { nil: undefined },
            ),
          })
          .map((d) => JSON.stringify(d)),
      ),
      fc.json(),
    ),
    check: (t: string) => {
      const r = parseSaveDocument(t);
      if (r.ok && (typeof r.value !== "object" || r.value === null))
        fail("save document", r, "an object");
    },
    cases: 6_000,
  },
  {
    name: "replay selection (--replay)",
    input: fc.oneof(hostileString, fc.constantFrom("all", "1,3", "edit 2", " 2 , 2 ")),
    check: (t: string) => void parseReplaySelection(t),
    cases: 3_000,
  },
  {
    name: "knobs (QUOIN_* environment)",
    input: fc.dictionary(
      fc.constantFrom(
        "QUOIN_STOP_BPS",
        "QUOIN_BLOCK_BPS",
        "QUOIN_CONTEXT_WINDOW",
        "QUOIN_BYTES_PER_TOKEN",
        "QUOIN_BLOCK_MODE",
        "QUOIN_1M_DISPATCH",
        "QUOIN_ROTATE_HOURS",
      ),
      hostileString,
    ),
    check: (env: Record<string, string>) => void readKnobs(env, () => undefined),
    cases: 3_000,
  },
  ...HOOKS.map(
    (h): ParserRow<string> => ({
      name: `${h.event} payload`,
      input: mutated(
        fc.constantFrom(...REAL_LINES.slice(0, 3)).map((l) =>
          JSON.stringify({
            session_id: SIDS[0],
            hook_event_name: h.event,
            cwd: "/home/u/proj",
            transcript_path: "/t.jsonl",
            prompt: l,
          }),
        ),
      ),
      check: (t: string) => void parseHookInput(h.schema(), t, h.event),
      cases: 2_000,
    }),
  ),
] as unknown as readonly ParserRow<never>[];
