import { nodeDeps } from "../lib/edge/node-deps.ts";
import { runValidatedHook } from "../lib/edge/hook-runner.ts";
import { userPromptSubmitSchema } from "../lib/hooks/hook-io.ts";
import { readKnobs } from "../lib/core/knobs.ts";
import { handleUserPromptSubmit } from "../lib/hooks/user-prompt-submit.ts";

const deps = nodeDeps();
await runValidatedHook("UserPromptSubmit", userPromptSubmitSchema, (input) => handleUserPromptSubmit(deps, input, readKnobs(deps.env, deps.warn)), deps);
