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

export type JsonLocateResult = { ok: true; root: JsonNode } | { ok: false; reason: string; line: number; column: number };

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

export function locateJson(text: string): JsonLocateResult {
  let i = 0;
  const ws = () => {
    // A leading byte-order mark is kept as it is, like whitespace.
    while (i < text.length && (" \t\n\r".includes(text[i] as string) || (i === 0 && text[i] === "\ufeff"))) i += 1;
  };
  const fail = (what: string): never => {
    const found = i < text.length ? JSON.stringify(text[i]) : "end of file";
    throw new JsonSyntaxError(`expected ${what}, found ${found}`, i);
  };
  const str = (): string => {
    const start = i;
    if (text[i] !== '"') fail("a string");
    i += 1;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") i += 1;
      else if ((text.charCodeAt(i) as number) < 0x20) fail("a closing quote");
      i += 1;
    }
    if (i >= text.length) fail("a closing quote");
    i += 1;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      i = start;
      return fail("a valid string");
    }
  };
  /** An object's or array's members, from after its opening bracket to past `close`. */
  const members = <T>(close: "}" | "]", member: () => T): T[] => {
    const out: T[] = [];
    ws();
    if (text[i] === close) {
      i += 1;
      return out;
    }
    for (;;) {
      out.push(member());
      ws();
      if (text[i] === ",") {
        i += 1;
        continue;
      }
      if (text[i] === close) {
        i += 1;
        return out;
      }
      fail(`',' or '${close}'`);
    }
  };
  const value = (): JsonNode => {
    ws();
    const start = i;
    const c = text[i];
    if (c === "{") {
      i += 1;
      const props = members("}", (): JsonProperty => {
        ws();
        const keyStart = i;
        const key = str();
        ws();
        if (text[i] !== ":") fail("':'");
        i += 1;
        const v = value();
        return { key, start: keyStart, end: v.end, value: v };
      });
      return { kind: "object", start, end: i, props };
    }
    if (c === "[") {
      i += 1;
      const items = members("]", value);
      return { kind: "array", start, end: i, items };
    }
    if (c === '"') {
      str();
      return { kind: "scalar", start, end: i };
    }
    const m = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 64));
    if (!m) fail("a JSON value");
    i += (m as RegExpExecArray)[0].length;
    return { kind: "scalar", start, end: i };
  };
  try {
    const root = value();
    ws();
    if (i < text.length) fail("end of file");
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
