import { describe, expect, it } from "vitest";
import { locateJson, type JsonNode } from "../../../lib/core/json-locate.ts";

// Every located node slices back to the value JSON.parse reads there.
function sliceParses(text: string, node: JsonNode): void {
  expect(JSON.parse(text.slice(node.start, node.end))).toBeDefined();
  if (node.kind === "object") for (const p of node.props) {
    expect(JSON.parse(text.slice(p.start, p.end).replace(/^("(?:[^"\\]|\\.)*")\s*:/, "[$1,") + "]")[0]).toBe(p.key);
    sliceParses(text, p.value);
  }
  if (node.kind === "array") for (const item of node.items) sliceParses(text, item);
}

describe("locateJson", () => {
  it.each(['{"a":[1,{"b":null}],"c":"x\\"y"}', "{}", "[]", '\ufeff {"k": [ ] }  ', '{\n  "hooks": {\n    "Stop": [ { "x": -1.5e3 } ]\n  }\n}\n'])(
    "locates every value of %j",
    (text) => {
      const res = locateJson(text);
      if (!res.ok) throw new Error(res.reason);
      sliceParses(text, res.root);
    },
  );
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
