import { nodeDeps } from "../lib/edge/node-deps.ts";
import { runValidatedHook } from "../lib/edge/hook-runner.ts";
import { preCompactSchema } from "../lib/hooks/hook-io.ts";
import { runPreCompact } from "../lib/hooks/pre-compact.ts";

// NOTE: PreCompact can block compaction since v2.1.105; this hook never prints a decision.
const deps = nodeDeps();
void runValidatedHook(
  "PreCompact",
  preCompactSchema,
  (input) => {
    runPreCompact(deps, input);
    return null;
  },
  deps,
);
