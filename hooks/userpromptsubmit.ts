import { nodeDeps } from "../lib/node-deps.ts";
import { runValidatedHook } from "../lib/hook-runner.ts";
import { userPromptSubmitSchema } from "../lib/hook-io.ts";
import { readKnobs } from "../lib/knobs.ts";
import { handleUserPromptSubmit } from "../lib/user-prompt-submit.ts";

const deps = nodeDeps();
await runValidatedHook("UserPromptSubmit", userPromptSubmitSchema, (input) => handleUserPromptSubmit(deps, input, readKnobs(deps.env, deps.warn)), deps);
