import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  cut,
  cutAtWord,
  cutWords,
  flatLine,
  oneLine,
  personLine,
} from "../../../lib/core/text-cut.ts";
import { TEXT_LIMITS } from "../../../lib/core/text-limits.ts";
import {
  boundedLines,
  firstOf,
  listWithin,
  moreLines,
  moreText,
} from "../../../lib/core/text-list.ts";
import { statusOfMark, TODO_MARK, todoMark } from "../../../lib/core/text-todo-mark.ts";

// The one text toolkit: the three cuts, the checkpoint's one line, the "+N more" lists, the todo
// marks and the person's line.

const words = fc
  .array(fc.stringMatching(/^[a-z]{1,12}$/), { minLength: 1, maxLength: 40 })
  .map((w) => w.join(" "));
const anyText = fc.string({ maxLength: 400 });
const max = fc.integer({ min: 10, max: 300 });

describe("cut, cutWords, cutAtWord", () => {
  test.prop([anyText, max])("cut and cutWords never go over max, and are one line", (t, m) => {
    for (const f of [cut, cutWords]) {
      const out = f(t, m);
      expect(out.length).toBeLessThanOrEqual(m);
      expect(out).not.toMatch(/\s\s|\n|^\s|\s$/);
    }
  });

  test.prop([anyText, max])("a text that fits is only flattened", (t, m) => {
    const flat = flatLine(t);
    fc.pre(flat.length <= m);
    expect(cut(t, m)).toBe(flat);
    expect(cutWords(t, m)).toBe(flat);
    expect(cutAtWord(t, m)).toBe(flat);
  });

  test.prop([words, max])(
    "cutWords never splits a word when a space lies in the last 40 % of the room",
    (t, m) => {
      const out = cutWords(t, m);
      fc.pre(out !== t);
      const kept = out.slice(0, -3);
      const room = t.slice(0, m - 3);
      const space = room.lastIndexOf(" ");
      expect(out.endsWith("...")).toBe(true);
      if (space > m * 0.6) {
        // the kept text is whole words: the original goes on with a space right after it
        expect(t.slice(kept.length, kept.length + 1)).toBe(" ");
      } else expect(kept).toBe(room.trimEnd());
    },
  );

  test.prop([words, max])("cutAtWord keeps whole words only", (t, m) => {
    const out = cutAtWord(t, m);
    fc.pre(out !== t);
    const kept = out.slice(0, -3);
    expect(t.startsWith(kept)).toBe(true);
    expect(t.slice(kept.length, kept.length + 1)).toBe(" ");
  });

  it("each cut as its callers need it", () => {
    const text = "retry the failing upload of /srv/data/archive-2026.tar after the lock clears";
    // data: cut at the character
    expect(cut(text, 40)).toBe("retry the failing upload of /srv/data...");
    // prose: at the last space in reach
    expect(cutWords(text, 40)).toBe("retry the failing upload of...");
    // an option offered to a person: never half a path, a long first word kept whole
    expect(cutAtWord(text, 40)).toBe("retry the failing upload of...");
    expect(cutAtWord("/a/very/long/path/with/no/space/in/it", 10)).toBe(
      "/a/very/long/path/with/no/space/in/it",
    );
    expect(cutWords("/a/very/long/path/with/no/space/in/it", 10)).toBe("/a/very...");
  });

  it("oneLine is what a checkpoint stores: ASCII, cut at the character", () => {
    expect(oneLine("caf\u00e9 \u201cok\u201d\n  next\u2026", 200)).toBe('caf? "ok" next...');
    expect(oneLine("x".repeat(10), 8)).toBe("xxxxx...");
  });
});

describe("the +N more lists", () => {
  it("one spelling by count, by characters, as lines", () => {
    expect(moreText(0, "files")).toBe("");
    expect(moreText(3, "files")).toBe("+3 more files");
    expect(moreText(3)).toBe("+3 more");
    expect(moreLines(2, "todos")).toEqual(["+2 more todos"]);
    expect(moreLines(0, "todos")).toEqual([]);
    expect(firstOf(["a", "b", "c"], 2)).toBe("a, b, +1 more");
    expect(firstOf(["a", "b"], 2)).toBe("a, b");
    expect(firstOf(["a", "b", "c"], 1, "; ", "items")).toBe("a; +2 more items");
    expect(boundedLines([1, 2, 3], 2, "numbers", (n) => `- ${n}`, "  ")).toEqual([
      "- 1",
      "- 2",
      "  +1 more numbers",
    ]);
  });

  test.prop([fc.array(fc.stringMatching(/^[a-z/.]{1,30}$/), { maxLength: 60 }), max])(
    "listWithin stays within max (the first item aside) and counts every item left out",
    (items, m) => {
      const out = listWithin(items, m);
      expect(out === "").toBe(items.length === 0);
      if (items.length === 0) return;
      const more = /, \+(\d+) more$/.exec(out);
      const shown = (more ? out.slice(0, more.index) : out).split(", ");
      expect(shown.length + (more ? Number(more[1]) : 0)).toBe(items.length);
      expect(shown).toEqual(items.slice(0, shown.length));
      if (shown.length > 1) expect(out.length).toBeLessThanOrEqual(m);
    },
  );
});

describe("todo marks and the person's line", () => {
  it("marks and back", () => {
    expect(TODO_MARK).toEqual({ completed: "[x]", in_progress: "[>]", pending: "[ ]" });
    expect(todoMark("in_progress")).toBe("[>]");
    expect(todoMark("whatever")).toBe("[ ]");
    expect(statusOfMark("[x]")).toBe("completed");
    expect(statusOfMark("[?]")).toBeNull();
  });

  test.prop([words])("a person's line is at most 200 characters, cut between words", (t) => {
    const line = personLine(`[quoin] ${t}`);
    expect(line.length).toBeLessThanOrEqual(TEXT_LIMITS.personLine);
    if (line.endsWith("...")) expect(`[quoin] ${t}`.charAt(line.length - 3)).toBe(" ");
  });
});

describe("the limits table", () => {
  const ROOT = path.resolve(import.meta.dirname, "../../..");
  const TABLE = "lib/core/text-limits.ts";
  // A `*_CHARS = <number>` that stays outside the table, and why it stays.
  const ELSEWHERE: Readonly<Record<string, string>> = {
    "lib/store/task-name.ts SLUG_CHARS": "a file name's length: the name's rule, not a text's",
    "lib/restore/brief/picker-rows.ts ROW_DOING_CHARS": "the brief's limits live with the brief",
    "cli/commands/save.ts DOCUMENT_BUDGET_CHARS":
      "what the model may write, stated in the skill's text; not a text this tool writes",
  };
  const sources = (dir: string) =>
    readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .map((f) => path.join(dir, f));

  it("a character limit written as a number lives in the table, or is named here with its reason", () => {
    const found = ["lib", "cli", "hooks"]
      .flatMap(sources)
      .filter((f) => f !== TABLE)
      .flatMap((f) =>
        [...readFileSync(path.join(ROOT, f), "utf8").matchAll(/\b(\w+_CHARS)\s*=\s*[\d_]/g)].map(
          (m) => `${f} ${m[1]}`,
        ),
      );
    expect(found.filter((k) => !(k in ELSEWHERE))).toEqual([]);
    // an entry whose constant is gone goes from the list too
    expect(Object.keys(ELSEWHERE).filter((k) => !found.includes(k))).toEqual([]);
  });

  it("imports nothing: the prompt hook's plain path reads it", () => {
    expect(readFileSync(path.join(ROOT, TABLE), "utf8")).not.toMatch(
      /^\s*(import|export .* from)\b/m,
    );
  });
});
