import * as z from "zod/mini";

/**
 * The fields every hook payload carries that the hooks read (CLAUDE-CODE.md section 2). Others
 * (permission_mode, prompt_id, effort ...) are kept untouched by the loose objects below.
 * NOTE: one string schema serves every field: each schema zod builds is paid on every prompt.
 */
function commonFields(event: string) {
  const str = z.string();
  const optionalStr = z.optional(str);
  return { str, optionalStr, fields: { session_id: str, transcript_path: optionalStr, cwd: optionalStr, hook_event_name: z.literal(event) } };
}

// NOTE: each schema is built on first use: a hook pays only for the one payload it reads.
function lazy<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

export const userPromptSubmitSchema = lazy(() => {
  const { str, fields } = commonFields("UserPromptSubmit");
  return z.looseObject({ ...fields, prompt: str });
});
export type UserPromptSubmitInput = z.infer<ReturnType<typeof userPromptSubmitSchema>>;

export const sessionStartSchema = lazy(() => {
  const { optionalStr, fields } = commonFields("SessionStart");
  return z.looseObject({ ...fields, source: optionalStr, model: optionalStr });
});
export type SessionStartInput = z.infer<ReturnType<typeof sessionStartSchema>>;

export const preCompactSchema = lazy(() => {
  const { str, optionalStr, fields } = commonFields("PreCompact");
  return z.looseObject({ ...fields, trigger: optionalStr, custom_instructions: z.optional(z.nullable(str)) });
});
export type PreCompactInput = z.infer<ReturnType<typeof preCompactSchema>>;

export type ParseResult<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Bad hook input: logged as one line, never shown to the model. */
export class HookInputError extends Error {
  override name = "HookInputError";
}

/** stdin text -> a validated payload, or one line saying what was wrong. */
export function parseHookInput<T>(schema: z.ZodMiniType<T>, raw: string, event: string): ParseResult<T> {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    const shown = raw.length > 40 ? `${raw.slice(0, 40)}...` : raw;
    return { ok: false, reason: `${event} stdin is not JSON (got ${JSON.stringify(shown)}); expected the hook payload object` };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0] as { path: PropertyKey[]; code?: string; expected?: string; values?: unknown[]; message?: string } | undefined;
    const where = issue?.path.length ? issue.path.map(String).join(".") : "payload";
    // NOTE: zod/mini ships no message locale; say what was expected from the issue itself.
    const expected =
      issue?.code === "invalid_type" && issue.expected
        ? `expected ${issue.expected}`
        : issue?.code === "invalid_value" && issue.values
          ? `expected ${issue.values.map((v) => JSON.stringify(v)).join(" or ")}`
          : (issue?.message ?? "invalid");
    return { ok: false, reason: `${event} stdin: ${where}: ${expected}` };
  }
  return { ok: true, value: parsed.data };
}

/** The one JSON answer a hook may print. */
export type HookAnswer =
  | { decision: "block"; reason: string }
  | {
      systemMessage?: string;
      hookSpecificOutput?: { hookEventName: string; additionalContext?: string };
    };

export const MAX_CONTEXT_CHARS = 2000;

/** Keep model-facing text under the 2,000-character budget. */
export function capText(text: string, max = MAX_CONTEXT_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 15)}\n[...truncated]`;
}

export function contextAnswer(event: string, additionalContext: string, systemMessage?: string): HookAnswer {
  return {
    ...(systemMessage ? { systemMessage: capText(systemMessage) } : {}),
    hookSpecificOutput: { hookEventName: event, additionalContext: capText(additionalContext) },
  };
}
