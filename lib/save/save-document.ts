import * as z from "zod/mini";
import { describeZodError } from "../core/zod-error.ts";
import type { CommitRef, NextUp } from "../store/checkpoint-values.ts";

/**
 * What the skill may hand `save --stdin-json`: the fields only the model knows (seed 001's next
 * up, blockers, in-progress; commits it made; what it finished in words, its decisions and open
 * questions). Every field optional; unknown keys are refused so a typo does not silently lose a
 * blocker. `completed` stays the commits (hash and subject); `done` is the words.
 */
const saveDocumentSchema = () =>
  z.strictObject({
    intent: z.optional(z.string()),
    task: z.optional(z.string()),
    inProgress: z.optional(z.string()),
    blockers: z.optional(z.array(z.string())),
    nextUp: z.optional(
      z.array(z.strictObject({ item: z.string(), prerequisitesMet: z.boolean() })),
    ),
    completed: z.optional(
      z.array(
        z.strictObject({
          hash: z.string().check(z.regex(/^[0-9a-f]{4,40}$/i)),
          subject: z.string(),
        }),
      ),
    ),
    notes: z.optional(z.array(z.string())),
    done: z.optional(z.array(z.string())),
    decisions: z.optional(z.array(z.string())),
    openQuestions: z.optional(z.array(z.string())),
  });

export interface SaveDocument {
  intent?: string;
  task?: string;
  inProgress?: string;
  blockers?: string[];
  nextUp?: NextUp[];
  completed?: CommitRef[];
  notes?: string[];
  done?: string[];
  decisions?: string[];
  openQuestions?: string[];
}

const SAVE_DOCUMENT_EXAMPLE =
  '{"task":"parser-rewrite","intent":"...","done":["T-03 tokenizer"],"inProgress":"T-04 half done","nextUp":[{"item":"T-05 wire the parser","prerequisitesMet":true}],' +
  '"blockers":["CI is red on main"],"decisions":["Pratt parser"],"openQuestions":["keep the old API?"]}';

export function parseSaveDocument(
  raw: string,
): { ok: true; value: SaveDocument } | { ok: false; reason: string } {
  if (raw.trim() === "") return { ok: true, value: {} };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return {
      ok: false,
      reason: `stdin is not JSON; expected an object like ${SAVE_DOCUMENT_EXAMPLE}`,
    };
  }
  const parsed = saveDocumentSchema().safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      reason: `stdin ${describeZodError(parsed.error)}; expected an object like ${SAVE_DOCUMENT_EXAMPLE}`,
    };
  }
  return { ok: true, value: parsed.data };
}

/** `--next "item"` is ready; `--next-blocked "item"` is not. */
export function nextUpFromFlags(ready: readonly string[], blocked: readonly string[]): NextUp[] {
  return [
    ...ready.map((item) => ({ item, prerequisitesMet: true })),
    ...blocked.map((item) => ({ item, prerequisitesMet: false })),
  ];
}
