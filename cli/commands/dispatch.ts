import { decideDispatch, TierSchema, writeDispatchCache } from "../../lib/skills/dispatch-decide.ts";
import { printJson, printLine } from "../cli-context.ts";
import type { Command } from "../command.ts";

const USAGE = "dispatch decide --tier haiku|sonnet|opus [--verbose] | dispatch write-cache --tier T --result safe|unsafe";

// NOTE: always exit 0. The preamble runs `decide` through `!` injection, and a non-zero exit there
// aborts the whole skill; a broken check must fail open to "dispatch" (the seed's fail-open rule).
export const dispatchCommand: Command = {
  name: "dispatch",
  summary: "the 1M-safety check before a skill dispatches to its declared tier",
  usage: USAGE,
  options: { tier: { type: "string" }, result: { type: "string" }, verbose: { type: "boolean", default: false } },
  positionals: true,
  run(ctx, values, positionals) {
    const action = positionals[0];
    const tier = TierSchema.safeParse(values["tier"]);
    if (action === "decide") {
      if (!tier.success) {
        ctx.deps.warn(`quoin-checkpoint: dispatch decide: --tier must be haiku, sonnet or opus; failing open to dispatch`);
        printLine(ctx, "dispatch\nprobe");
        return 0;
      }
      const d = decideDispatch(ctx.deps, tier.data, ctx.knobs.QUOIN_1M_DISPATCH);
      if (ctx.json) printJson(ctx, { ok: true, decision: d.verdict, reason: d.reason, detail: d.detail });
      else printLine(ctx, `${d.verdict}\n${d.reason}${values["verbose"] ? `\n${d.detail}` : ""}`);
      return 0;
    }
    if (action === "write-cache") {
      const result = values["result"];
      if (!tier.success || (result !== "safe" && result !== "unsafe")) {
        ctx.deps.warn(`quoin-checkpoint: usage: ${USAGE}; nothing cached`);
        if (ctx.json) printJson(ctx, { ok: false, reason: "expected --tier haiku|sonnet|opus and --result safe|unsafe" });
        return 0;
      }
      try {
        const file = writeDispatchCache(ctx.deps, tier.data, result);
        if (ctx.json) printJson(ctx, { ok: true, cache: file });
        else printLine(ctx, `cached ${tier.data}=${result} in ${file}`);
      } catch (err) {
        ctx.deps.warn(`quoin-checkpoint: dispatch write-cache: ${(err as Error).message}; nothing cached`);
        if (ctx.json) printJson(ctx, { ok: false, reason: (err as Error).message });
      }
      return 0;
    }
    ctx.deps.warn(`quoin-checkpoint: usage: ${USAGE}`);
    printLine(ctx, "dispatch\nprobe");
    return 0;
  },
};
