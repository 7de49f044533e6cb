import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { KNOB_NAMES, knobDefault, readKnobs } from "../../../lib/core/knobs.ts";

describe("knobs", () => {
  it("gives the documented defaults when nothing is set", () => {
    const warnings: string[] = [];
    const k = readKnobs({}, (l) => warnings.push(l));
    expect(k).toMatchObject({
      QUOIN_STOP_BPS: 7000,
      QUOIN_COMPACT_FIRST_BPS: 9000,
      QUOIN_BLOCK_BPS: 9500,
      QUOIN_PANIC_BPS: 10000,
      QUOIN_BLOCK_MODE: "block",
      QUOIN_AUTOCOMPACT_BUFFER: 33000,
      QUOIN_BYTES_PER_TOKEN: 8,
      QUOIN_RESTORE_SENTINEL_WINDOW: 7,
      QUOIN_RESTORE_STALE_DAYS: 1,
      QUOIN_SESSION_FALLBACK_WINDOW: 7,
      QUOIN_PICKER_DEDUP_WINDOW: 7,
      QUOIN_CLEANUP_SENTINEL_WINDOW: 1,
      QUOIN_CLEANUP_CKPT_WINDOW: 30,
      QUOIN_ROTATE_OBSERVATIONS: 0,
      QUOIN_ROTATE_HOURS: 0,
    });
    expect(k.QUOIN_CONTEXT_WINDOW).toBeUndefined();
    expect(k.QUOIN_EFFECTIVE_CONTEXT_LIMIT).toBeUndefined();
    expect(k.QUOIN_1M_DISPATCH).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it("reads valid values", () => {
    const k = readKnobs(
      {
        QUOIN_BLOCK_MODE: "advise",
        QUOIN_CONTEXT_WINDOW: "1000000",
        QUOIN_BYTES_PER_TOKEN: "4.5",
        QUOIN_1M_DISPATCH: "sonnet,haiku",
      },
      () => {},
    );
    expect(k).toMatchObject({
      QUOIN_BLOCK_MODE: "advise",
      QUOIN_CONTEXT_WINDOW: 1000000,
      QUOIN_BYTES_PER_TOKEN: 4.5,
      QUOIN_1M_DISPATCH: "sonnet,haiku",
    });
  });

  it.each([
    ["QUOIN_STOP_BPS", "70%"],
    ["QUOIN_BLOCK_MODE", "yes"],
    ["QUOIN_CONTEXT_WINDOW", "-5"],
    ["QUOIN_BYTES_PER_TOKEN", "0"],
    ["QUOIN_1M_DISPATCH", "maybe"],
    ["QUOIN_ROTATE_OBSERVATIONS", "1.5"],
  ] as const)(
    "a bad %s=%s costs one line naming the knob and the default is used",
    (name, value) => {
      const warnings: string[] = [];
      const k = readKnobs({ [name]: value }, (l) => warnings.push(l));
      expect(k[name]).toBe(knobDefault(name));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        new RegExp(`^\\[quoin\\] ${name}=.*expected .*; using the default`),
      );
    },
  );

  it("has one entry per knob of the seed, plus the SessionEnd hook's deadline, sharing and the compaction steering (docs/commands.md: Knobs)", () => {
    expect(KNOB_NAMES).toHaveLength(22);
    expect(knobDefault("QUOIN_SHARE")).toBe("off");
    expect(knobDefault("QUOIN_STEER_COMPACTION")).toBe("1");
    expect(knobDefault("QUOIN_SESSIONEND_DEADLINE_MS")).toBe(1200);
    expect(knobDefault("QUOIN_TRASH_DAYS")).toBe(30);
  });

  it("docs/commands.md's Knobs table lists exactly the knobs declared here, in the same order", () => {
    const readme = readFileSync(
      path.join(import.meta.dirname, "..", "..", "..", "docs", "commands.md"),
      "utf8",
    );
    const section = readme.slice(readme.indexOf("\n## Knobs\n"));
    const table = section.slice(0, section.indexOf("\n\n", section.indexOf("| variable |")));
    const rows = [...table.matchAll(/^\| `(QUOIN_[A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(rows).toEqual(KNOB_NAMES);
  });
});
