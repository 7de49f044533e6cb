import { MODEL_TIERS } from "../../lib/core/model-tiers.ts";
import {
  CacheResultSchema,
  decideDispatch,
  TierSchema,
  writeDispatchCache,
} from "../../lib/skills/dispatch-decide.ts";
import { printLine, type CliContext } from "../cli-context.ts";
import { answer, EXIT, refuse, type Refusal } from "../answer.ts";
import { defineCommand } from "../command.ts";

// NOTE: always exit 0. The preamble runs `decide` through `!` injection, and a non-zero exit there
// aborts the whole skill; a broken check must fail open to "dispatch" (the seed's fail-open rule).
// NOTE: --tier and --result are plain strings checked here with zod, not enum options: a bad value
// must fail open (exit 0), never be a usage error.
/** Fail open to "dispatch" (probe): the text form is the two lines the preamble reads. */
function failOpen(ctx: CliContext, r: Refusal, warning: string): number {
  ctx.deps.warn(warning);
  if (ctx.json) return refuse(ctx, r, { code: EXIT.done, extra: { decision: "dispatch" } });
  printLine(ctx, "dispatch\nprobe");
  return EXIT.done;
}

const TIER_EXPECTED = `--tier ${MODEL_TIERS.join("|")}`;

export const dispatchCommand = defineCommand({
  name: "dispatch",
  summary: "used by the skills: may a step run on a smaller model in a 1M-token session",
  args: "decide|write-cache",
  options: {
    tier: { type: "string", hint: MODEL_TIERS.join("|") },
    result: { type: "string", hint: "safe|unsafe" },
    verbose: { type: "boolean" },
  },
  alwaysExitZero: true,
  run(ctx, values, positionals): number {
    const action = positionals[0];
    const tier = TierSchema.safeParse(values.tier);
    if (action === "decide") {
      if (!tier.success)
        return failOpen(
          ctx,
          { reason: "dispatch decide: no valid --tier", expected: TIER_EXPECTED },
          `quoin-checkpoint: dispatch decide: --tier must be haiku, sonnet or opus; failing open to dispatch`,
        );
      const d = decideDispatch(ctx.deps, tier.data, ctx.knobs.QUOIN_1M_DISPATCH);
      if (ctx.json) return answer(ctx, { decision: d.verdict, reason: d.reason, detail: d.detail });
      printLine(ctx, `${d.verdict}\n${d.reason}${values.verbose ? `\n${d.detail}` : ""}`);
      return EXIT.done;
    }
    if (action === "write-cache") {
      const result = CacheResultSchema.safeParse(values.result);
      if (!tier.success || !result.success) {
        ctx.deps.warn(`quoin-checkpoint: usage: ${dispatchCommand.usage}; nothing cached`);
        if (ctx.json)
          refuse(
            ctx,
            {
              reason: "expected --tier haiku|sonnet|opus and --result safe|unsafe",
              expected: `${TIER_EXPECTED} --result safe|unsafe`,
            },
            { code: EXIT.done },
          );
        return EXIT.done;
      }
      try {
        const file = writeDispatchCache(ctx.deps, tier.data, result.data);
        if (ctx.json) return answer(ctx, { cache: file });
        printLine(ctx, `cached ${tier.data}=${result.data} in ${file}`);
      } catch (err) {
        ctx.deps.warn(
          `quoin-checkpoint: dispatch write-cache: ${(err as Error).message}; nothing cached`,
        );
        if (ctx.json) refuse(ctx, { reason: (err as Error).message }, { code: EXIT.done });
      }
      return EXIT.done;
    }
    return failOpen(
      ctx,
      {
        reason: `dispatch: unknown action ${JSON.stringify(action ?? "")}`,
        expected: "decide|write-cache",
      },
      `quoin-checkpoint: usage: ${dispatchCommand.usage}`,
    );
  },
});
