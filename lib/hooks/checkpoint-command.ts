import { isPluginRun, PLUGIN_COMMAND, withCommand } from "../core/checkpoint-command.ts";
import type { HookAnswer } from "./hook-io.ts";

/** A hook's answer with every bare `/checkpoint` named as the plugin's command, when run from it. */
export function answerForInstall(
  answer: HookAnswer,
  env: Readonly<Record<string, string | undefined>>,
): HookAnswer {
  if (!isPluginRun(env)) return answer;
  const fix = (t: string) => withCommand(t, PLUGIN_COMMAND);
  if ("decision" in answer) return { ...answer, reason: fix(answer.reason) };
  const out = answer.hookSpecificOutput;
  return {
    ...answer,
    ...(answer.systemMessage !== undefined ? { systemMessage: fix(answer.systemMessage) } : {}),
    ...(out
      ? {
          hookSpecificOutput: {
            ...out,
            ...(out.additionalContext !== undefined
              ? { additionalContext: fix(out.additionalContext) }
              : {}),
          },
        }
      : {}),
  };
}
