import { MODEL_TIERS } from "../../lib/core/model-tiers.ts";
import {
  CacheResultSchema,
  decideDispatch,
  TierSchema,
  writeDispatchCache,
} from "../../lib/skills/dispatch-decide.ts";
import { printJson, printLine } from "../cli-context.ts";
import { defineCommand } from "../command.ts";

// NOTE: always exit 0. The preamble runs `decide` through `!` injection, and a non-zero exit there
// aborts the whole skill; a broken check must fail open to "dispatch" (the seed's fail-open rule).
// NOTE: --tier and --result are plain strings checked here with zod, not enum options: a bad value
// must fail open (exit 0), never be a usage error.
export const dispatchCommand = defineCommand({
  name: "dispatch",
  summary: "the 1M-safety check before a skill dispatches to its declared tier",
  args: "decide|write-cache",
  options: {
    tier: { type: "string", hint: MODEL_TIERS.join("|") },
    result: { type: "string", hint: "safe|unsafe" },
    verbose: { type: "boolean" },
  },
  run(ctx, values, positionals) {
    const action = positionals[0];
    const tier = TierSchema.safeParse(values.tier);
    if (action === "decide") {
      if (!tier.success) {
        ctx.deps.warn(
          `quoin-checkpoint: dispatch decide: --tier must be haiku, sonnet or opus; failing open to dispatch`,
        );
        printLine(ctx, "dispatch\nprobe");
        return 0;
      }
      const d = decideDispatch(ctx.deps, tier.data, ctx.knobs.QUOIN_1M_DISPATCH);
      if (ctx.json)
        printJson(ctx, { ok: true, decision: d.verdict, reason: d.reason, detail: d.detail });
      else printLine(ctx, `${d.verdict}\n${d.reason}${values.verbose ? `\n${d.detail}` : ""}`);
      return 0;
    }
    if (action === "write-cache") {
      const result = CacheResultSchema.safeParse(values.result);
      if (!tier.success || !result.success) {
        ctx.deps.warn(`quoin-checkpoint: usage: ${dispatchCommand.usage}; nothing cached`);
        if (ctx.json)
          printJson(ctx, {
            ok: false,
            reason: "expected --tier haiku|sonnet|opus and --result safe|unsafe",
          });
        return 0;
      }
      try {
        const file = writeDispatchCache(ctx.deps, tier.data, result.data);
        if (ctx.json) printJson(ctx, { ok: true, cache: file });
        else printLine(ctx, `cached ${tier.data}=${result.data} in ${file}`);
      } catch (err) {
        ctx.deps.warn(
          `quoin-checkpoint: dispatch write-cache: ${(err as Error).message}; nothing cached`,
        );
        if (ctx.json) printJson(ctx, { ok: false, reason: (err as Error).message });
      }
      return 0;
    }
    ctx.deps.warn(`quoin-checkpoint: usage: ${dispatchCommand.usage}`);
    printLine(ctx, "dispatch\nprobe");
    return 0;
  },
});
