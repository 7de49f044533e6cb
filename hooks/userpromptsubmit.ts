import { nodeDeps } from "../lib/node-deps.ts";
import { runHook } from "../lib/hook-runner.ts";
import { HookInputError, parseHookInput, userPromptSubmitSchema } from "../lib/hook-io.ts";
import { readKnobs } from "../lib/knobs.ts";
import { handleUserPromptSubmit } from "../lib/user-prompt-submit.ts";

const deps = nodeDeps();
await runHook(
  "UserPromptSubmit",
  (raw, ctx) => {
    const parsed = parseHookInput(userPromptSubmitSchema(), raw, "UserPromptSubmit");
    if (!parsed.ok) throw new HookInputError(parsed.reason);
    ctx.logCwd = parsed.value.cwd;
    return handleUserPromptSubmit(deps, parsed.value, readKnobs(deps.env, deps.warn));
  },
  deps,
);
