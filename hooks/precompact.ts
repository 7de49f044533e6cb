import { nodeDeps } from "../lib/edge/node-deps.ts";
import { runValidatedHook } from "../lib/edge/hook-runner.ts";
import { preCompactSchema } from "../lib/hooks/hook-io.ts";
import { preCompactSteering, runPreCompact } from "../lib/hooks/pre-compact.ts";
import { readKnobs } from "../lib/core/knobs.ts";

// NOTE: PreCompact can block compaction since v2.1.105; this hook never prints a decision. Its
// plain stdout (not JSON) is appended to the summariser's instructions: see compact-steer.ts.
const deps = nodeDeps();
void runValidatedHook(
  "PreCompact",
  preCompactSchema,
  (input) => {
    const outcome = runPreCompact(deps, input);
    const text = preCompactSteering(outcome, input, readKnobs(deps.env, deps.warn));
    return text ? { plainText: text } : null;
  },
  deps,
);
