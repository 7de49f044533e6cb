import { nodeDeps } from "../lib/edge/node-deps.ts";
import { runValidatedHook } from "../lib/edge/hook-runner.ts";
import { sessionStartSchema } from "../lib/hooks/hook-io.ts";
import { readKnobs } from "../lib/core/knobs.ts";
import { handleSessionStart } from "../lib/hooks/session-start.ts";

const deps = nodeDeps();
void runValidatedHook(
  "SessionStart",
  sessionStartSchema,
  (input) => handleSessionStart(deps, input, readKnobs(deps.env, deps.warn)),
  deps,
);
