import {
  lineColumn,
  locateJson,
  propertyOf,
  type JsonNode,
  type JsonObjectNode,
} from "../core/json-locate.ts";

// settings.json as located text, for the edits that keep the person's bytes (settings-merge.ts,
// settings-statusline.ts) and the readers doctor uses: parsed once per edit, refused with line and
// column when malformed or when a key quoin edits is written twice.

export type MergeResult =
  | { ok: true; text: string; changed: boolean }
  | { ok: false; reason: string };

type Parsed = { ok: true; root: JsonObjectNode } | { ok: false; reason: string };

export function parseRoot(text: string, file: string): Parsed {
  const located = locateJson(text);
  if (!located.ok)
    return {
      ok: false,
      reason: `${file} is not valid JSON (${located.reason}); fix it by hand, nothing was changed`,
    };
  if (located.root.kind !== "object")
    return {
      ok: false,
      reason: `${file}: expected a JSON object at the top level; nothing was changed`,
    };
  const twice = repeatedKey(text, located.root);
  if (twice)
    return {
      ok: false,
      reason: `${file}: ${twice}; JSON.parse keeps only the last, so an edit could land on the one that is ignored. Fix it by hand, nothing was changed`,
    };
  return { ok: true, root: located.root };
}

/** A key written twice where quoin edits (the top level, "hooks", "statusLine"), with its line and column. */
function repeatedKey(text: string, root: JsonObjectNode): string | null {
  const hooks = propertyOf(root, "hooks")?.value;
  const statusLine = propertyOf(root, "statusLine")?.value;
  for (const [where, node] of [
    ["the top level", root],
    ['"hooks"', hooks],
    ['"statusLine"', statusLine],
  ] as const) {
    if (node?.kind !== "object") continue;
    const seen = new Set<string>();
    for (const p of node.props) {
      if (seen.has(p.key)) {
        const { line, column } = lineColumn(text, p.start);
        return `key "${p.key}" appears twice in ${where} (again at line ${line}, column ${column})`;
      }
      seen.add(p.key);
    }
  }
  return null;
}

export function nodeValue(text: string, node: JsonNode): unknown {
  return JSON.parse(text.slice(node.start, node.end));
}

/** An edit of the root: the new text, a refusal, or null for no change. */
export type RootEdit = (root: JsonObjectNode) => string | { reason: string } | null;

/** One edit step: re-locate after every change so offsets are always fresh. */
export function step(
  text: string,
  file: string,
  edit: RootEdit,
): { ok: true; text: string } | { ok: false; reason: string } {
  const parsed = parseRoot(text, file);
  if (!parsed.ok) return parsed;
  const out = edit(parsed.root);
  if (out === null) return { ok: true, text };
  if (typeof out === "object") return { ok: false, reason: out.reason };
  return { ok: true, text: out };
}
