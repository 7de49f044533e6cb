import { failureText } from "../lib/core/fs-error-words.ts";
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
import { didYouMean } from "./did-you-mean.ts";
import { commandHelpText } from "./command-help.ts";
import { engineInvocation } from "../lib/core/shell-quote.ts";

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
  return `quoin-checkpoint: session continuity for Claude Code\n\nusage: quoin-checkpoint <command> [options]\n\n${rows}\n\nEvery command takes --cwd DIR, --session ID and --json; quoin-checkpoint <command> --help shows its options and an example.\n`;
}

type ParseOptions = Command["parseOptions"];

/**
 * What is wrong with a command's arguments, in the engine's words (the flag as typed and the
 * nearest one it has), before node's parser sees them; null when nothing is. Node's own texts
 * ("To specify a positional argument starting with a '-' ...") never reach a person.
 */
export function argvFault(
  command: string,
  args: readonly string[],
  options: ParseOptions,
): string | null {
  const longs = Object.keys(options).map((k) => `--${k}`);
  const shorts = new Map<string, string>(
    Object.entries(options).flatMap(([k, o]) => (o.short ? [[`-${o.short}`, k] as const] : [])),
  );
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === "--") return null;
    if (!arg.startsWith("-") || arg === "-") continue;
    const [flag, inline] = arg.startsWith("--")
      ? [arg.split("=")[0]!, arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : undefined]
      : [arg.slice(0, 2), arg.length > 2 ? arg.slice(2) : undefined];
    const key = flag.startsWith("--") ? flag.slice(2) : shorts.get(flag);
    const option = key === undefined ? undefined : options[key];
    if (!option) return `${command}: unknown option ${flag}${didYouMean(flag, longs)}`;
    if (option.type === "boolean") {
      if (inline !== undefined) return `${command}: ${flag} takes no value`;
      continue;
    }
    if (inline !== undefined) continue;
    const next = args[i + 1];
    if (next === undefined || next.startsWith("-"))
      return `${command}: ${flag} needs a value (${flag}=VALUE for one that starts with -)`;
    i += 1;
  }
  return null;
}

/**
 * argv with the common options given before the command moved after it: the commands the engine
 * prints for a person to rerun read `<engine> --session ID restore --proceed`.
 */
export function commandFirst(argv: readonly string[]): string[] {
  const lead: string[] = [];
  let i = 0;
  while (i < argv.length) {
    const arg = argv[i]!;
    const key = arg.startsWith("--") ? arg.slice(2).split("=")[0]! : "";
    if (key === "json") lead.push(arg);
    else if ((key === "session" || key === "cwd") && arg.includes("=")) lead.push(arg);
    else if ((key === "session" || key === "cwd") && i + 1 < argv.length) {
      lead.push(arg, argv[i + 1]!);
      i += 1;
    } else break;
    i += 1;
  }
  if (!lead.length || i >= argv.length) return [...argv];
  return [argv[i]!, ...lead, ...argv.slice(i + 1)];
}

/** Parse argv, run one command, and turn every outcome into an exit code by EXIT (answer.ts). */
export function runCli(
  argv: readonly string[],
  world: Deps,
  io: CliIo,
  commands: readonly Command[],
): number {
  const [name, ...rest] = commandFirst(argv);
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
    const names = commands.map((c) => c.name);
    if (!command)
      throw new UsageError(
        `unknown command ${name}${didYouMean(name, names) || `; expected one of: ${names.join(", ")}`}`,
        names.join("|"),
      );
    const options = { ...COMMON_OPTIONS, ...command.parseOptions };
    const fault = argvFault(name, rest, options);
    if (fault) throw new UsageError(fault, command.usage);
    const { values, positionals } = parseArgs({
      args: [...rest],
      options,
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      io.stdout(commandHelpText(command, engineInvocation(world)));
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
    // argvFault has said what is wrong before the parser could throw; this is its fallback.
    if (e.code?.startsWith("ERR_PARSE_ARGS"))
      return refuse(
        {
          reason: `${name}: cannot read the arguments; usage: quoin-checkpoint ${command?.usage ?? "<command> --help"}`,
          ...(command ? { expected: command.usage } : {}),
        },
        EXIT.usage,
      );
    return refuse({ reason: `${name}: ${failureText(e)}` }, EXIT.refused);
  }
}
