import { indentAt, type JsonArrayNode, type JsonNode, type JsonObjectNode } from "./json-locate.ts";

// Minimal text edits on located JSON: insert a property or an array item, remove one, replace a
// value. Each insert has an exact inverse in the matching remove, so install then uninstall gives
// back the original bytes.
// NOTE: jsonc-parser's modify/applyEdits was measured against this on 2026-12-02 and not adopted:
// appending a hook entry to a one-line array, it reformats the user's existing entries too (so an
// install then uninstall does not give the bytes back), it takes a fixed indent where this follows
// the file's own (indentAt), and bundled it costs 17.2 KB minified against 3.7 KB for this file
// and json-locate.ts together.

const INDENT_STEP = "  ";

/** JSON.stringify(value, null, 2), every line after the first shifted to `indent`. */
function renderJson(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).split("\n").join(`\n${indent}`);
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

function childIndent(
  text: string,
  container: JsonNode,
  firstChildStart: number | undefined,
): string {
  if (firstChildStart !== undefined) {
    const lineStart = text.lastIndexOf("\n", firstChildStart - 1) + 1;
    // A child on the container's own line (compact JSON): indent one step from that line.
    if (lineStart <= container.start) return indentAt(text, container.start) + INDENT_STEP;
    return indentAt(text, firstChildStart);
  }
  return indentAt(text, container.start) + INDENT_STEP;
}

function insertChild(
  text: string,
  container: JsonObjectNode | JsonArrayNode,
  starts: number[],
  lastEnd: number | undefined,
  render: (indent: string) => string,
): string {
  const indent = childIndent(text, container, starts[0]);
  if (lastEnd !== undefined) return splice(text, lastEnd, lastEnd, `,\n${indent}${render(indent)}`);
  const inner = text.slice(container.start + 1, container.end - 1);
  if (inner === "") {
    // `{}` / `[]` -> a pretty block; removeChild recognises this shape and gives back `{}`.
    const closing = indentAt(text, container.start);
    return splice(
      text,
      container.start + 1,
      container.end - 1,
      `\n${indent}${render(indent)}\n${closing}`,
    );
  }
  return splice(text, container.start + 1, container.start + 1, `\n${indent}${render(indent)}`);
}

export function insertProperty(
  text: string,
  obj: JsonObjectNode,
  key: string,
  value: unknown,
): string {
  const last = obj.props[obj.props.length - 1];
  return insertChild(
    text,
    obj,
    obj.props.map((p) => p.start),
    last?.end,
    (indent) => `${JSON.stringify(key)}: ${renderJson(value, indent)}`,
  );
}

export function appendItem(text: string, arr: JsonArrayNode, value: unknown): string {
  const last = arr.items[arr.items.length - 1];
  return insertChild(
    text,
    arr,
    arr.items.map((p) => p.start),
    last?.end,
    (indent) => renderJson(value, indent),
  );
}

function removeChild(
  text: string,
  container: JsonNode,
  spans: Array<{ start: number; end: number }>,
  index: number,
): string {
  const span = spans[index];
  if (!span) return text;
  if (spans.length === 1) {
    const before = text.slice(container.start + 1, span.start);
    const after = text.slice(span.end, container.end - 1);
    const indent = childIndent(text, container, span.start);
    if (before === `\n${indent}` && after === `\n${indentAt(text, container.start)}`) {
      return splice(text, container.start + 1, container.end - 1, "");
    }
    return splice(text, container.start + 1, span.end, "");
  }
  if (index > 0) return splice(text, (spans[index - 1] as { end: number }).end, span.end, "");
  return splice(text, span.start, (spans[1] as { start: number }).start, "");
}

export function removeProperty(text: string, obj: JsonObjectNode, key: string): string {
  const index = obj.props.findIndex((p) => p.key === key);
  return index === -1 ? text : removeChild(text, obj, obj.props, index);
}

export function removeItem(text: string, arr: JsonArrayNode, index: number): string {
  return removeChild(text, arr, arr.items, index);
}

export function replaceValue(text: string, node: JsonNode, value: unknown): string {
  return splice(text, node.start, node.end, renderJson(value, indentAt(text, node.start)));
}
