import { SETTINGS_COMMAND, withCommand } from "../core/checkpoint-command.ts";
import type { HookAnswer } from "./hook-io.ts";

/** A hook's answer with every bare `/checkpoint` named as `command` (checkpointCommand: its install's). */
export function answerForInstall(answer: HookAnswer, command: string): HookAnswer {
  if (command === SETTINGS_COMMAND) return answer;
  const fix = (t: string) => withCommand(t, command);
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
