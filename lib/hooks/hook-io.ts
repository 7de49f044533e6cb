import { TEXT_LIMITS } from "../core/text-limits.ts";
import {
  firstBadField,
  literal,
  optionalNullableString,
  optionalString,
  requiredString,
  type FieldCheck,
} from "../core/value-checks.ts";

/**
 * A hook payload: the fields the hooks read, each checked; every other field (permission_mode,
 * prompt_id, effort ...) is kept as it came. NOTE: no zod on this path: measured, zod's object
 * schema cost about 1.3 ms more per run than this walk, and merely loading zod/mini 3-4 ms (3-4 %
 * of a bare `node -e 0`), paid before every prompt. The checks are core/value-checks.ts's.
 */
export interface PayloadSpec<T = unknown> {
  event: string;
  fields: Record<string, FieldCheck>;
  /** the payload type the fields describe (type-level only) */
  readonly _payload?: T;
}

function spec<T>(event: string, extra: PayloadSpec["fields"]): () => PayloadSpec<T> {
  const payload: PayloadSpec<T> = {
    event,
    fields: {
      session_id: requiredString,
      hook_event_name: literal(event),
      transcript_path: optionalString,
      cwd: optionalString,
      ...extra,
    },
  };
  return () => payload;
}

interface CommonInput {
  session_id: string;
  hook_event_name: string;
  transcript_path?: string;
  cwd?: string;
  [other: string]: unknown;
}

export interface UserPromptSubmitInput extends CommonInput {
  prompt: string;
  /** who submitted the prompt (2.1.332's schema): user, sdk, or a machine source; often absent */
  source?: string;
}
export const userPromptSubmitSchema = spec<UserPromptSubmitInput>("UserPromptSubmit", {
  prompt: requiredString,
  source: optionalString,
});

export interface SessionStartInput extends CommonInput {
  source?: string;
  model?: string;
  /** resume and fork on 2.1.332: what re-sending the resumed transcript costs */
  context_tokens?: number;
  prompt_cache_likely_expired?: boolean;
  estimated_cache_write_usd?: number;
  seconds_since_last_response?: number;
}
export const sessionStartSchema = spec<SessionStartInput>("SessionStart", {
  source: optionalString,
  model: optionalString,
});

export interface PreCompactInput extends CommonInput {
  trigger?: string;
  custom_instructions?: string | null;
}
export const preCompactSchema = spec<PreCompactInput>("PreCompact", {
  trigger: optionalString,
  custom_instructions: optionalNullableString,
});

export interface SessionEndInput extends CommonInput {
  /** clear, resume, logout, prompt_input_exit, other; newer clients send others */
  reason?: string;
}
export const sessionEndSchema = spec<SessionEndInput>("SessionEnd", { reason: optionalString });

export type ParseResult<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Bad hook input: logged as one line, never shown to the model. */
export class HookInputError extends Error {
  override name = "HookInputError";
}

/** stdin text -> a validated payload, or one line saying what was wrong. */
export function parseHookInput<T extends CommonInput>(
  payload: PayloadSpec<T>,
  raw: string,
  event: string,
): ParseResult<T> {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    const shown = raw.length > 40 ? `${raw.slice(0, 40)}...` : raw;
    return {
      ok: false,
      reason: `${event} stdin is not JSON (got ${JSON.stringify(shown)}); expected the hook payload object`,
    };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return { ok: false, reason: `${event} stdin: payload: expected an object` };
  }
  const record = json as Record<string, unknown>;
  const bad = firstBadField(record, payload.fields);
  if (bad) return { ok: false, reason: `${event} stdin: ${bad.name}: expected ${bad.expected}` };
  return { ok: true, value: record as T };
}

/** The one JSON answer a hook may print. */
export type HookAnswer =
  | { decision: "block"; reason: string }
  | {
      systemMessage?: string;
      hookSpecificOutput?: { hookEventName: string; additionalContext?: string };
    };

const MAX_CONTEXT_CHARS = TEXT_LIMITS.hookContext;

/** Keep model-facing text under the 2,000-character budget. */
export function capText(text: string, max = MAX_CONTEXT_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 15)}\n[...truncated]`;
}

export function contextAnswer(
  event: string,
  additionalContext: string,
  systemMessage?: string,
): HookAnswer {
  return {
    ...(systemMessage ? { systemMessage: capText(systemMessage) } : {}),
    hookSpecificOutput: { hookEventName: event, additionalContext: capText(additionalContext) },
  };
}
