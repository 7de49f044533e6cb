import { parseArgs } from "node:util";
import {
  checkpointCommand,
  SETTINGS_COMMAND,
  withCommand,
} from "../lib/core/checkpoint-command.ts";
import type { Deps } from "../lib/core/deps.ts";
import { buildContext, UsageError } from "./cli-context.ts";
import type { Command } from "./command.ts";
import { EXIT, refusalJson, type Refusal } from "./answer.ts";

const COMMON_OPTIONS = {
  cwd: { type: "string" },
  session: { type: "string" },
  json: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => string;
}

function helpText(commands: readonly Command[]): string {
  const rows = commands.map((c) => `  ${c.name.padEnd(12)} ${c.summary}`).join("\n");
  return `quoin-checkpoint: session continuity for Claude Code\n\nusage: quoin-checkpoint <command> [options]\n\n${rows}\n\nEvery command takes --cwd DIR, --session ID and --json.\n`;
}

/** Parse argv, run one command, and turn every outcome into an exit code by EXIT (answer.ts). */
export function runCli(
  argv: readonly string[],
  world: Deps,
  io: CliIo,
  commands: readonly Command[],
): number {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    io.stdout(helpText(commands));
    return name ? EXIT.done : EXIT.usage;
  }
  const command = commands.find((c) => c.name === name);
  // Every text the engine prints says `/checkpoint`; run from the plugin it names the plugin's
  // command instead (checkpointCommand decides, for the hooks too).
  const slash = command?.namesCommandsItself ? SETTINGS_COMMAND : checkpointCommand(world);
  const say = (text: string) => withCommand(text, slash);
  const deps: Deps = { ...world, warn: (line) => world.warn(say(line)) };
  // Under --json every outcome is exactly one object on stdout, refusals included.
  const wantsJson = rest.includes("--json");
  let printed = false;
  const stdout = (text: string) => {
    printed = true;
    io.stdout(say(text));
  };
  const refuse = (r: Refusal, code: number): number => {
    io.stderr(say(`quoin-checkpoint: ${r.reason}\n`));
    if (wantsJson && !printed) io.stdout(say(`${JSON.stringify(refusalJson(r))}\n`));
    return command?.alwaysExitZero ? EXIT.done : code;
  };
  try {
    if (!command)
      throw new UsageError(
        `unknown command '${name}'; expected one of: ${commands.map((c) => c.name).join(", ")}`,
        commands.map((c) => c.name).join("|"),
      );
    const { values, positionals } = parseArgs({
      args: [...rest],
      options: { ...COMMON_OPTIONS, ...command.parseOptions },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      io.stdout(`usage: quoin-checkpoint ${command.usage}\n`);
      return EXIT.done;
    }
    if (positionals.length && !command.positionals) {
      throw new UsageError(
        `${name}: unexpected argument '${positionals[0]}'; usage: quoin-checkpoint ${command.usage}`,
        command.usage,
      );
    }
    const ctx = buildContext(
      deps,
      {
        cwd: typeof values.cwd === "string" ? values.cwd : undefined,
        session: typeof values.session === "string" ? values.session : undefined,
        json: values.json === true,
      },
      { stdout, readStdin: io.readStdin },
    );
    const code = command.run(ctx, values, positionals);
    return command.alwaysExitZero ? EXIT.done : code;
  } catch (err) {
    const e = err as Error & { code?: string };
    if (err instanceof UsageError)
      return refuse(
        { reason: e.message, ...(err.expected ? { expected: err.expected } : {}) },
        EXIT.usage,
      );
    if (e.code?.startsWith("ERR_PARSE_ARGS"))
      return refuse(
        { reason: e.message, ...(command ? { expected: command.usage } : {}) },
        EXIT.usage,
      );
    return refuse({ reason: `${name}: ${e.message}` }, EXIT.refused);
  }
}
