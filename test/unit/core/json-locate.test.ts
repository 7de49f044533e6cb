import { describe, expect, it } from "vitest";
import { locateJson, type JsonNode } from "../../../lib/core/json-locate.ts";

// Every located node slices back to the very value JSON.parse reads at that place in the document.
function sliceParses(text: string, node: JsonNode, expected: unknown, where = "(root)"): void {
  expect(JSON.parse(text.slice(node.start, node.end)), where).toEqual(expected);
  if (node.kind === "object") {
    const record = expected as Record<string, unknown>;
    expect(
      node.props.map((p) => p.key),
      `${where} keys`,
    ).toEqual(Object.keys(record));
    for (const p of node.props) {
      expect(
        JSON.parse(`${text.slice(p.start, p.end).replace(/^("(?:[^"\\]|\\.)*")\s*:/, "[$1,")}]`),
        `${where}.${p.key}`,
      ).toEqual([p.key, record[p.key]]);
      sliceParses(text, p.value, record[p.key], `${where}.${p.key}`);
    }
  }
  if (node.kind === "array") {
    const list = expected as unknown[];
    expect(node.items, `${where} length`).toHaveLength(list.length);
    for (const [n, item] of node.items.entries())
      sliceParses(text, item, list[n], `${where}[${n}]`);
  }
}

describe("locateJson", () => {
  it.each([
    '{"a":[1,{"b":null}],"c":"x\\"y"}',
    "{}",
    "[]",
    '\ufeff {"k": [ ] }  ',
    '{\n  "hooks": {\n    "Stop": [ { "x": -1.5e3 } ]\n  }\n}\n',
  ])("locates every value of %j", (text) => {
    const res = locateJson(text);
    if (!res.ok) throw new Error(res.reason);
    sliceParses(text, res.root, JSON.parse(text.replace(/^\ufeff/, "")));
  });
  it.each([
    ['{"a":1,}', "line 1, column 8: expected a string"],
    ["[1,]", "line 1, column 4: expected a JSON value"],
    ['{"a" 1}', "line 1, column 6: expected ':'"],
    ["[1 2]", "line 1, column 4: expected ',' or ']'"],
    ['{"a":1', "line 1, column 7: expected ',' or '}', found end of file"],
    ['{\n  "a": 1\n  "b": 2\n}', "line 3, column 3: expected ',' or '}'"],
  ])("refuses %j with where and what", (text, reason) => {
    expect(locateJson(text)).toMatchObject({ ok: false, reason: expect.stringContaining(reason) });
  });
});
