import { runClaude, startLoopbackModel, type MessagesBody } from "./loopback-model.ts";
import { installFromDist, scriptedCommands, tempProject } from "./skill-driver.ts";

// The world the skill e2e tests run /checkpoint in: a fresh home and git project, the settings
// install from this checkout's dist/, a loopback model that answers the rendered skill with a
// fixed list of Bash commands, and one run of the real client. The test checks what came back.

export interface ScriptedSkillRun {
  /** the temp folder's name prefix */
  prefix: string;
  /** the Bash commands the model sends, one a turn, from the engine command and session it read */
  commands: (engine: string, session: string) => string[];
  /** the client's arguments: the prompt, e.g. "/checkpoint --mode restore" */
  prompt: string;
  /** before the install: e.g. a remote for the project */
  prepare?: (env: { home: string; project: string }) => void;
}

export interface ScriptedSkillResult {
  env: { home: string; project: string };
  run: Awaited<ReturnType<typeof runClaude>>;
  /** every request the client sent the model, in order */
  bodies: MessagesBody[];
}

export async function runScriptedSkill(o: ScriptedSkillRun): Promise<ScriptedSkillResult> {
  const env = tempProject(o.prefix);
  o.prepare?.(env);
  installFromDist(env, "user");
  const model = await startLoopbackModel(scriptedCommands(o.commands));
  try {
    const run = await runClaude({
      home: env.home,
      cwd: env.project,
      baseUrl: model.url,
      args: [o.prompt],
    });
    return { env, run, bodies: model.messageBodies() };
  } finally {
    await model.close();
  }
}
