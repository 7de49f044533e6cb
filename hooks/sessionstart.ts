import { nodeDeps } from "../lib/node-deps.ts";
import { runValidatedHook } from "../lib/hook-runner.ts";
import { sessionStartSchema } from "../lib/hook-io.ts";
import { readKnobs } from "../lib/knobs.ts";
import { handleSessionStart } from "../lib/session-start.ts";

const deps = nodeDeps();
await runValidatedHook("SessionStart", sessionStartSchema, (input) => handleSessionStart(deps, input, readKnobs(deps.env, deps.warn)), deps);
