import type { ParseArgsConfig } from "node:util";
import type { CliContext } from "./cli-context.ts";

export type OptionSpec = NonNullable<ParseArgsConfig["options"]>;

export type ParsedValues = Record<string, string | boolean | string[] | undefined>;

/** One engine subcommand: its own options (on top of --cwd, --session, --json) and a run that returns the exit code. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  options: OptionSpec;
  /** positionals allowed (e.g. `dispatch decide`, `show <file>`) */
  positionals?: boolean;
  run: (ctx: CliContext, values: ParsedValues, positionals: string[]) => number;
}
