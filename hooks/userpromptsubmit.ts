import * as path from "node:path";
import { nodeDeps } from "../lib/edge/node-deps.ts";
import { runValidatedHook } from "../lib/edge/hook-runner.ts";
import { engineForcedSave } from "../lib/edge/engine-snapshot.ts";
import { userPromptSubmitSchema } from "../lib/hooks/hook-io.ts";
import { readKnobs } from "../lib/core/knobs.ts";
import { ENGINE_BUNDLE } from "../lib/core/engine-name.ts";
import { handleUserPromptSubmit } from "../lib/hooks/user-prompt-submit.ts";

const deps = nodeDeps();
// The engine sits beside the hooks folder in every layout (dist/, an install, the plugin).
const engine = path.join(import.meta.dirname, "..", ENGINE_BUNDLE);
void runValidatedHook(
  "UserPromptSubmit",
  userPromptSubmitSchema,
  (input) =>
    handleUserPromptSubmit(deps, input, readKnobs(deps.env, deps.warn), {
      forcedSave: engineForcedSave(deps, engine),
    }),
  deps,
);
