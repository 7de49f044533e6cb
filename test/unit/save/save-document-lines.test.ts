import { describe, expect, it } from "vitest";
import { parseSaveDocument } from "../../../lib/save/save-document.ts";

// The lines form of the save's document, for a quoted heredoc: apostrophes and double quotes as
// typed, and no `{` (the client's permission check refuses a brace followed by a quote outside
// quotes, which a heredoc body is: "Contains brace with quote character").

describe("the save document as lines", () => {
  it("reads text keys, continued lines, lists, nextUp with (blocked), completed as hash and subject", () => {
    const raw = [
      "task: parser-rewrite",
      'intent: the user\'s "fast" parser',
      "inProgress: T-04: it's half done",
      "  the tokenizer passes; the Pratt loop does not",
      "done:",
      "- T-03 tokenizer",
      "nextUp:",
      "- T-05 wire the parser",
      "- (blocked) T-06 release: needs CI",
      "decisions:",
      "- don't keep the old API",
      "completed:",
      "- abc1234 feat: tokenizer",
      "",
    ].join("\n");
    expect(parseSaveDocument(raw)).toEqual({
      ok: true,
      value: {
        task: "parser-rewrite",
        intent: 'the user\'s "fast" parser',
        inProgress: "T-04: it's half done\nthe tokenizer passes; the Pratt loop does not",
        done: ["T-03 tokenizer"],
        nextUp: [
          { item: "T-05 wire the parser", prerequisitesMet: true },
          { item: "T-06 release: needs CI", prerequisitesMet: false },
        ],
        decisions: ["don't keep the old API"],
        completed: [{ hash: "abc1234", subject: "feat: tokenizer" }],
      },
    });
  });

  it("refuses an unknown key, a list key with text on its line, an item with no key, a bad hash", () => {
    for (const raw of ["blocker:\n- typo", "done: x", "- orphan", "completed:\n- zzz x"]) {
      const out = parseSaveDocument(raw);
      expect(out.ok, raw).toBe(false);
      expect(out.ok ? "" : out.reason).toContain("or lines like task: ");
    }
  });
});
