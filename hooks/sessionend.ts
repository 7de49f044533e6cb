import { nodeDeps } from "../lib/edge/node-deps.ts";
import { runValidatedHook } from "../lib/edge/hook-runner.ts";
import { sessionEndSchema } from "../lib/hooks/hook-io.ts";
import { readKnobs } from "../lib/core/knobs.ts";
import { logSessionEnd, runSessionEnd } from "../lib/hooks/session-end.ts";

// NOTE: SessionEnd cannot block and its output is not shown: this hook prints nothing.
const deps = nodeDeps();
const knobs = readKnobs(deps.env, deps.warn);
void runValidatedHook(
  "SessionEnd",
  sessionEndSchema,
  (input, ctx) => {
    logSessionEnd(
      deps,
      input,
      runSessionEnd(deps, input, { deadlineAt: ctx.deadlineAt, share: knobs.QUOIN_SHARE }),
    );
    return null;
  },
  deps,
  {
    budgetMs: knobs.QUOIN_SESSIONEND_DEADLINE_MS,
    finishOnSigterm: true,
  },
);
