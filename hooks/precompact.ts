import { nodeDeps } from "../lib/node-deps.ts";
import { runHook } from "../lib/hook-runner.ts";
import { HookInputError, parseHookInput, preCompactSchema } from "../lib/hook-io.ts";
import { runPreCompact } from "../lib/pre-compact.ts";

// NOTE: PreCompact can block compaction since v2.1.105; this hook never prints a decision.
const deps = nodeDeps();
await runHook(
  "PreCompact",
  (raw, ctx) => {
    const parsed = parseHookInput(preCompactSchema(), raw, "PreCompact");
    if (!parsed.ok) throw new HookInputError(parsed.reason);
    ctx.logCwd = parsed.value.cwd;
    runPreCompact(deps, parsed.value);
    return null;
  },
  deps,
);
