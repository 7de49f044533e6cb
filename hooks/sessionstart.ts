import { nodeDeps } from "../lib/node-deps.ts";
import { runHook } from "../lib/hook-runner.ts";
import { HookInputError, parseHookInput, sessionStartSchema } from "../lib/hook-io.ts";
import { readKnobs } from "../lib/knobs.ts";
import { handleSessionStart } from "../lib/session-start.ts";

const deps = nodeDeps();
await runHook(
  "SessionStart",
  (raw, ctx) => {
    const parsed = parseHookInput(sessionStartSchema(), raw, "SessionStart");
    if (!parsed.ok) throw new HookInputError(parsed.reason);
    ctx.logCwd = parsed.value.cwd;
    return handleSessionStart(deps, parsed.value, readKnobs(deps.env, deps.warn));
  },
  deps,
);
