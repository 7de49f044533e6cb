import { nodeDeps } from "../lib/node-deps.ts";
import { runValidatedHook } from "../lib/hook-runner.ts";
import { preCompactSchema } from "../lib/hook-io.ts";
import { runPreCompact } from "../lib/pre-compact.ts";

// NOTE: PreCompact can block compaction since v2.1.105; this hook never prints a decision.
const deps = nodeDeps();
await runValidatedHook(
  "PreCompact",
  preCompactSchema,
  (input) => {
    runPreCompact(deps, input);
    return null;
  },
  deps,
);
