import { describe, expectTypeOf, it } from "vitest";
import type { Knobs } from "../../../lib/core/knobs.ts";
import { oneOf, type TextParse } from "../../../lib/core/value-checks.ts";

// Type tests: vitest's typecheck runs them (vitest.config.ts), so a wrong type fails the run.
describe("oneOf: z.enum, exactly", () => {
  it("types its value as the union of the strings", () => {
    expectTypeOf(oneOf(["block", "advise"])).toEqualTypeOf<TextParse<"block" | "advise">>();
  });
});

describe("readKnobs on the new checks", () => {
  it("keeps the knobs precisely typed", () => {
    expectTypeOf<Knobs>().toEqualTypeOf<{
      QUOIN_STOP_BPS: number;
      QUOIN_COMPACT_FIRST_BPS: number;
      QUOIN_BLOCK_BPS: number;
      QUOIN_PANIC_BPS: number;
      QUOIN_BLOCK_MODE: "block" | "advise";
      QUOIN_CONTEXT_WINDOW: number | undefined;
      QUOIN_EFFECTIVE_CONTEXT_LIMIT: number | undefined;
      QUOIN_AUTOCOMPACT_BUFFER: number;
      QUOIN_BYTES_PER_TOKEN: number;
      QUOIN_RESTORE_SENTINEL_WINDOW: number;
      QUOIN_RESTORE_STALE_DAYS: number;
      QUOIN_SESSION_FALLBACK_WINDOW: number;
      QUOIN_PICKER_DEDUP_WINDOW: number;
      QUOIN_CLEANUP_SENTINEL_WINDOW: number;
      QUOIN_CLEANUP_CKPT_WINDOW: number;
      QUOIN_ROTATE_OBSERVATIONS: number;
      QUOIN_ROTATE_HOURS: number;
      QUOIN_TRASH_DAYS: number;
      QUOIN_SESSIONEND_DEADLINE_MS: number;
      QUOIN_SHARE: string;
      QUOIN_STEER_COMPACTION: "0" | "1";
      QUOIN_1M_DISPATCH: string | undefined;
    }>();
  });
});
