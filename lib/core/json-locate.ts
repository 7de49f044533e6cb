// A strict JSON parser that remembers where every value sits in the text, so an edit can touch
// only the bytes it means to (settings.json keeps the user's formatting). Errors carry the line
// and column of the first bad character.

export type JsonNode = JsonObjectNode | JsonArrayNode | JsonScalarNode;

export interface JsonObjectNode {
  kind: "object";
  start: number;
  end: number;
  props: JsonProperty[];
}
export interface JsonProperty {
  key: string;
  /** offset of the key's opening quote */
  start: number;
  /** end of the value */
  end: number;
  value: JsonNode;
}
export interface JsonArrayNode {
  kind: "array";
  start: number;
  end: number;
  items: JsonNode[];
}
export interface JsonScalarNode {
  kind: "scalar";
  start: number;
  end: number;
}

export type JsonLocateResult =
  | { ok: true; root: JsonNode }
  | { ok: false; reason: string; line: number; column: number };

export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** The parser's position in the text; each step below moves `i` past what it read. */
interface Cursor {
  readonly text: string;
  i: number;
}

function skipSpace(c: Cursor): void {
  // A leading byte-order mark is kept as it is, like whitespace.
  while (
    c.i < c.text.length &&
    (" \t\n\r".includes(c.text[c.i] as string) || (c.i === 0 && c.text[c.i] === "\ufeff"))
  )
    c.i += 1;
}

function fail(c: Cursor, what: string): never {
  const found = c.i < c.text.length ? JSON.stringify(c.text[c.i]) : "end of file";
  throw new JsonSyntaxError(`expected ${what}, found ${found}`, c.i);
}

function readString(c: Cursor): string {
  const { text } = c;
  const start = c.i;
  if (text[c.i] !== '"') fail(c, "a string");
  c.i += 1;
  while (c.i < text.length && text[c.i] !== '"') {
    if (text[c.i] === "\\") c.i += 1;
    else if ((text.charCodeAt(c.i) as number) < 0x20) fail(c, "a closing quote");
    c.i += 1;
  }
  if (c.i >= text.length) fail(c, "a closing quote");
  c.i += 1;
  try {
    return JSON.parse(text.slice(start, c.i)) as string;
  } catch {
    c.i = start;
    return fail(c, "a valid string");
  }
}

/** An object's or array's members, from after its opening bracket to past `close`. */
function readMembers<T>(c: Cursor, close: "}" | "]", member: () => T): T[] {
  const out: T[] = [];
  skipSpace(c);
  if (c.text[c.i] === close) {
    c.i += 1;
    return out;
  }
  for (;;) {
    out.push(member());
    skipSpace(c);
    if (c.text[c.i] === ",") {
      c.i += 1;
      continue;
    }
    if (c.text[c.i] === close) {
      c.i += 1;
      return out;
    }
    fail(c, `',' or '${close}'`);
  }
}

function readProperty(c: Cursor): JsonProperty {
  skipSpace(c);
  const keyStart = c.i;
  const key = readString(c);
  skipSpace(c);
  if (c.text[c.i] !== ":") fail(c, "':'");
  c.i += 1;
  const v = readValue(c);
  return { key, start: keyStart, end: v.end, value: v };
}

function readValue(c: Cursor): JsonNode {
  skipSpace(c);
  const start = c.i;
  const ch = c.text[c.i];
  if (ch === "{") {
    c.i += 1;
    const props = readMembers(c, "}", () => readProperty(c));
    return { kind: "object", start, end: c.i, props };
  }
  if (ch === "[") {
    c.i += 1;
    const items = readMembers(c, "]", () => readValue(c));
    return { kind: "array", start, end: c.i, items };
  }
  if (ch === '"') {
    readString(c);
    return { kind: "scalar", start, end: c.i };
  }
  const m = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
    c.text.slice(c.i, c.i + 64),
  );
  if (!m) fail(c, "a JSON value");
  c.i += m[0].length;
  return { kind: "scalar", start, end: c.i };
}

export function locateJson(text: string): JsonLocateResult {
  const c: Cursor = { text, i: 0 };
  try {
    const root = readValue(c);
    skipSpace(c);
    if (c.i < text.length) fail(c, "end of file");
    return { ok: true, root };
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    const { line, column } = lineColumn(text, err.offset);
    return { ok: false, reason: `line ${line}, column ${column}: ${err.message}`, line, column };
  }
}

export function propertyOf(node: JsonNode | undefined, key: string): JsonProperty | undefined {
  return node?.kind === "object" ? node.props.find((p) => p.key === key) : undefined;
}

/** The indentation of the line `offset` sits on. */
export function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? "";
}
