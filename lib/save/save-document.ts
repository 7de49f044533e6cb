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

type Parsed = { ok: true; value: SaveDocument } | { ok: false; reason: string };

const TEXT_KEYS = ["task", "intent", "inProgress"] as const;
const LIST_KEYS = ["done", "blockers", "decisions", "openQuestions", "notes"] as const;
const LINES_EXAMPLE =
  "task: parser-rewrite / intent: ... / inProgress: T-04 half done / nextUp: then '- T-05 wire it' or '- (blocked) T-06' lines / done:, blockers:, decisions:, openQuestions:, notes: then '- item' lines / completed: then '- <hash> <subject>' lines";

const refuseLines = (what: string): Parsed => ({
  ok: false,
  reason: `${what}; expected an object like ${SAVE_DOCUMENT_EXAMPLE} or lines like ${LINES_EXAMPLE}`,
});

/**
 * The document as lines, for a quoted heredoc (no JSON braces: the client's permission check
 * refuses a `{` followed by a quote outside quotes, which a heredoc body is). `key: text` for task,
 * intent and inProgress (further lines that are not a key or an item continue the text); `key:`
 * then `- item` lines for the lists; nextUp items are ready unless marked `(blocked)`; completed
 * items are `<hash> <subject>`. An unknown key is refused, as in the JSON form.
 */
export function parseDocumentLines(raw: string): Parsed {
  const doc: SaveDocument = {};
  let key: string | null = null;
  for (const line of raw.replace(/\r/g, "").split("\n")) {
    if (line.trim() === "") continue;
    const head = /^([A-Za-z]+):\s*(.*)$/.exec(line);
    if (head) {
      key = head[1]!;
      const text = head[2]!.trim();
      if ((TEXT_KEYS as readonly string[]).includes(key)) {
        if (text !== "") doc[key as (typeof TEXT_KEYS)[number]] = text;
      } else if (
        !(LIST_KEYS as readonly string[]).includes(key) &&
        key !== "nextUp" &&
        key !== "completed"
      )
        return refuseLines(`document line "${key}:" is not a known key`);
      else if (text !== "")
        return refuseLines(`document key "${key}:" takes '- item' lines below it`);
      continue;
    }
    const item = /^\s*-\s+(.*)$/.exec(line)?.[1]?.trim();
    if (key === null) return refuseLines(`document starts without a key`);
    if (item === undefined || (TEXT_KEYS as readonly string[]).includes(key)) {
      const k = key as (typeof TEXT_KEYS)[number];
      if (!(TEXT_KEYS as readonly string[]).includes(key))
        return refuseLines(`document line under "${key}:" is not a '- item' line`);
      doc[k] = doc[k] ? `${doc[k]}\n${line.trim()}` : line.trim();
      continue;
    }
    if (key === "nextUp") {
      const blocked = /^\(blocked\)\s*/i.exec(item);
      doc.nextUp = doc.nextUp ?? [];
      doc.nextUp.push({
        item: blocked ? item.slice(blocked[0].length) : item,
        prerequisitesMet: !blocked,
      });
    } else if (key === "completed") {
      const m = /^([0-9a-f]{4,40})\s+(.+)$/i.exec(item);
      if (!m) return refuseLines(`completed item "${item}" is not '<hash> <subject>'`);
      doc.completed = [...(doc.completed ?? []), { hash: m[1]!, subject: m[2]! }];
    } else {
      const k = key as (typeof LIST_KEYS)[number];
      doc[k] = [...(doc[k] ?? []), item];
    }
  }
  return { ok: true, value: doc };
}

/** The save's document: JSON (an object) or, when it does not start with `{`, the lines form above. */
export function parseSaveDocument(raw: string): Parsed {
  if (raw.trim() === "") return { ok: true, value: {} };
  if (!raw.trimStart().startsWith("{")) return parseDocumentLines(raw);
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
