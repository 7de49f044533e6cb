import * as path from "node:path";
import type { Deps } from "../../lib/core/deps.ts";
import { readKnobs } from "../../lib/core/knobs.ts";
import {
  parseHookInput,
  preCompactSchema,
  sessionEndSchema,
  sessionStartSchema,
  userPromptSubmitSchema,
  type HookAnswer,
  type PayloadSpec,
} from "../../lib/hooks/hook-io.ts";
import { appendHookLog } from "../../lib/hooks/hook-log.ts";
import { projectMemory } from "../../lib/store/project-root.ts";
import { preCompactSteering, runPreCompact } from "../../lib/hooks/pre-compact.ts";
import { handleSessionStart } from "../../lib/hooks/session-start.ts";
import { handleUserPromptSubmit } from "../../lib/hooks/user-prompt-submit.ts";
import { logSessionEnd, runSessionEnd } from "../../lib/hooks/session-end.ts";
import { knobDefault } from "../../lib/core/knobs.ts";
import {
  ENGINE_BUNDLE,
  HOOK_SPECS,
  hookBundleFile,
  type HookBundle,
} from "../../lib/install/install-layout.ts";
import { DIST } from "../helpers/run-bundle.ts";
import { HOOK_DEADLINE_MS, type PlainTextAnswer } from "../../lib/edge/hook-runner.ts";

// The hooks and the parsers the guarantee suites drive. A new hook or parser is one row here:
// every suite (fuzz in-process, fuzz as processes, concurrency, crashes, stalls) reads these tables.

/**
 * What a hook may print: nothing, or one JSON object of this shape (docs/claude-code-versions.md, "Hook payloads");
 * "steer": PreCompact's plain text for the summariser (ASCII, at most 2,000 characters, not JSON).
 */
export type AnswerShape = "none" | "context" | "block-or-context" | "steer";

export interface HookRow {
  /** dist/hooks/<bundle>.<ext>, as HOOK_SPECS names it */
  bundle: HookBundle;
  event: string;
  schema: () => PayloadSpec<never>;
  /** exactly what hooks/<bundle>.ts hands runValidatedHook */
  handle: (deps: Deps, input: never) => HookAnswer | PlainTextAnswer | null;
  answers: AnswerShape;
  /** the hook's own deadline: past it, a hook still waiting (on stdin) exits 0 with no answer */
  budgetMs: number;
  /** the timeout the installer registers for it, in seconds */
  timeoutS: number;
  /** the event's own payload fields, beside the common ones */
  extra: Record<string, readonly unknown[]>;
}

function timeoutOf(bundle: string): number {
  return HOOK_SPECS.find((s) => s.bundle === bundle)?.timeout ?? 0;
}

export const HOOKS: readonly HookRow[] = [
  {
    bundle: "userpromptsubmit",
    event: "UserPromptSubmit",
    schema: userPromptSubmitSchema as () => PayloadSpec<never>,
    handle: (deps, input) => handleUserPromptSubmit(deps, input, readKnobs(deps.env, deps.warn)),
    answers: "block-or-context",
    budgetMs: HOOK_DEADLINE_MS,
    timeoutS: timeoutOf("userpromptsubmit"),
    extra: { prompt: ["PROMPT"] },
  },
  {
    bundle: "sessionstart",
    event: "SessionStart",
    schema: sessionStartSchema as () => PayloadSpec<never>,
    handle: (deps, input) => handleSessionStart(deps, input, readKnobs(deps.env, deps.warn)),
    answers: "context",
    budgetMs: HOOK_DEADLINE_MS,
    timeoutS: timeoutOf("sessionstart"),
    extra: {
      source: ["startup", "resume", "clear", "compact", "fork"],
      model: ["claude-sonnet-4-5", "claude-opus-4-8", undefined],
    },
  },
  {
    bundle: "precompact",
    event: "PreCompact",
    schema: preCompactSchema as () => PayloadSpec<never>,
    handle: (deps, input: Parameters<typeof runPreCompact>[1]) => {
      const text = preCompactSteering(
        runPreCompact(deps, input),
        input,
        readKnobs(deps.env, deps.warn),
      );
      return text ? { plainText: text } : null;
    },
    answers: "steer",
    budgetMs: HOOK_DEADLINE_MS,
    timeoutS: timeoutOf("precompact"),
    extra: { trigger: ["auto", "manual"], custom_instructions: ["", "keep the test names", null] },
  },
  {
    bundle: "sessionend",
    event: "SessionEnd",
    schema: sessionEndSchema as () => PayloadSpec<never>,
    // In-process there is no process start to count from: the deadline is the process suites' to test.
    handle: (deps, input) => (
      logSessionEnd(
        deps,
        input,
        runSessionEnd(deps, input, { deadlineAt: Number.MAX_SAFE_INTEGER }),
      ),
      null
    ),
    answers: "none",
    budgetMs: knobDefault("QUOIN_SESSIONEND_DEADLINE_MS") as number,
    // No timeout is registered: Claude Code gives all SessionEnd hooks 1.5 s together.
    timeoutS: 1.5,
    extra: {
      reason: ["clear", "resume", "logout", "prompt_input_exit", "other"],
      prompt_id: ["95515dbb-0000-4000-8000-000000000001", undefined],
    },
  },
];

/**
 * What the hook process would print for `raw` stdin, in-process: runValidatedHook's steps (parse,
 * validate, handle, one JSON line; any failure: nothing printed and one line in the hook log
 * (<config>/quoin-checkpoint/logs/hooks.log), only where .workflow_artifacts/ exists). Never throws.
 */
export function inProcessAnswer(row: HookRow, deps: Deps, raw: string): string {
  let logCwd: string | undefined;
  try {
    const parsed = parseHookInput(row.schema(), raw, row.event);
    if (!parsed.ok) throw new Error(parsed.reason);
    logCwd = (parsed.value as { cwd?: string }).cwd;
    const answer = row.handle(deps, parsed.value);
    if (answer && "plainText" in answer) return answer.plainText && `${answer.plainText}\n`;
    return answer ? `${JSON.stringify(answer)}\n` : "";
  } catch (err) {
    try {
      const paths = projectMemory(deps, logCwd ?? deps.cwd);
      if (paths && deps.fs.existsSync(paths.artifacts))
        appendHookLog(deps, `${row.event}: ${(err as Error).message}`, paths.root);
    } catch {
      // fail open, silently
    }
    return "";
  }
}

/** The built bundle of a hook, where the installer takes it from. */
export function bundleFile(bundle: HookBundle): string {
  return path.join(DIST, hookBundleFile(bundle));
}

export const ENGINE_FILE = path.join(DIST, ENGINE_BUNDLE);

/** Every bundle the installer registers has a row (a new hook cannot be missed by the suites). */
export function missingRows(): string[] {
  return HOOK_SPECS.map((s) => s.bundle).filter((b) => !HOOKS.some((h) => h.bundle === b));
}

/**
 * Check one hook's stdout against the documented shape: empty, or exactly one JSON object (one
 * line) with only the fields the event reads, model-facing text within 2,000 characters.
 * Returns the problem, or null.
 */
export function answerProblem(
  row: Pick<HookRow, "event" | "answers">,
  stdout: string,
): string | null {
  if (stdout === "") return null;
  if (row.answers === "none")
    return `${row.event} printed ${JSON.stringify(stdout.slice(0, 80))}; it must print nothing`;
  if (row.answers === "steer") {
    if (!/^[\x20-\x7E\n]*$/.test(stdout)) return "steering text is not ASCII";
    if (stdout.length > 2001) return "steering text over 2,000 characters";
    return stdout.trimStart().startsWith("{") ? "steering text looks like JSON" : null;
  }
  if (!stdout.endsWith("\n") || stdout.indexOf("\n") !== stdout.length - 1)
    return "stdout is not exactly one line";
  let v: unknown;
  try {
    v = JSON.parse(stdout);
  } catch {
    return `stdout is not JSON: ${JSON.stringify(stdout.slice(0, 80))}`;
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return "stdout is not a JSON object";
  const o = v as Record<string, unknown>;
  if ("decision" in o) {
    if (row.answers !== "block-or-context") return `${row.event} may not block`;
    if (o["decision"] !== "block" || typeof o["reason"] !== "string" || Object.keys(o).length !== 2)
      return `bad block answer ${stdout.slice(0, 120)}`;
    return o["reason"].length > 10_000 ? "block reason over 10,000 characters" : null;
  }
  for (const k of Object.keys(o))
    if (k !== "systemMessage" && k !== "hookSpecificOutput") return `unknown key ${k}`;
  if (
    "systemMessage" in o &&
    (typeof o["systemMessage"] !== "string" || o["systemMessage"].length > 2000)
  )
    return "bad systemMessage";
  const h = o["hookSpecificOutput"] as Record<string, unknown> | undefined;
  if (h !== undefined) {
    if (typeof h !== "object" || h === null || h["hookEventName"] !== row.event)
      return `hookSpecificOutput.hookEventName is not ${row.event}`;
    for (const k of Object.keys(h))
      if (k !== "hookEventName" && k !== "additionalContext")
        return `unknown hookSpecificOutput key ${k}`;
    const ctx = h["additionalContext"];
    if (ctx !== undefined && (typeof ctx !== "string" || ctx.length > 2000))
      return "additionalContext missing or over 2,000 characters";
  }
  return null;
}
