import type { ParseArgsConfig } from "node:util";
import * as z from "zod/mini";
import { UsageError, type CliContext } from "./cli-context.ts";

/**
 * One option of an engine subcommand. The kind decides the type `run` receives:
 * boolean -> boolean (false when absent); string -> string | undefined; string + multiple ->
 * string[] ([] when absent); enum -> one of `values` | undefined, checked with zod (exit 2 otherwise).
 */
export type OptionDef =
  | { type: "boolean" }
  | { type: "string"; hint: string; multiple?: false }
  | { type: "string"; hint: string; multiple: true }
  | { type: "enum"; values: readonly [string, ...string[]] };

export type OptionDefs = Readonly<Record<string, OptionDef>>;

export type OptionValues<O extends OptionDefs> = {
  -readonly [K in keyof O]: O[K] extends { type: "boolean" }
    ? boolean
    : O[K] extends { type: "enum"; values: readonly (infer V)[] }
      ? V | undefined
      : O[K] extends { multiple: true }
        ? string[]
        : string | undefined;
};

export interface CommandDef<O extends OptionDefs> {
  name: string;
  summary: string;
  /** the positional form shown in the usage line (`decide|write-cache`); omitted: no positionals */
  args?: string;
  options: O;
  /** exit 0 whatever happens (EXIT's note: dispatch and pidfile run through a `!` injection) */
  alwaysExitZero?: boolean;
  /** its texts name `/checkpoint` and the plugin's command on purpose (doctor): printed as written */
  namesCommandsItself?: boolean;
  run: (ctx: CliContext, values: OptionValues<O>, positionals: string[]) => number;
}

/** A command as runCli sees it: node:util options to parse with, the generated usage, and a run over raw values. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  positionals: boolean;
  alwaysExitZero: boolean;
  namesCommandsItself: boolean;
  parseOptions: NonNullable<ParseArgsConfig["options"]>;
  run: (ctx: CliContext, raw: Readonly<Record<string, unknown>>, positionals: string[]) => number;
}

const COMMON_USAGE = "[--session ID] [--cwd DIR] [--json]";

function _usageOf(key: string, def: OptionDef): string {
  if (def.type === "boolean") return `[--${key}]`;
  if (def.type === "enum") return `[--${key} ${def.values.join("|")}]`;
  return `[--${key} ${def.hint}]${def.multiple ? "..." : ""}`;
}

function _parseOption(def: OptionDef): NonNullable<ParseArgsConfig["options"]>[string] {
  if (def.type === "boolean") return { type: "boolean" };
  if (def.type === "enum") return { type: "string" };
  return def.multiple ? { type: "string", multiple: true } : { type: "string" };
}

function _value(command: string, key: string, def: OptionDef, raw: unknown): unknown {
  if (def.type === "boolean") return raw === true;
  if (def.type === "string")
    return def.multiple
      ? Array.isArray(raw)
        ? raw
        : []
      : typeof raw === "string"
        ? raw
        : undefined;
  if (raw === undefined) return undefined;
  const parsed = z.enum(def.values).safeParse(raw);
  if (!parsed.success)
    throw new UsageError(
      `${command}: --${key} ${JSON.stringify(raw)} is not valid; expected one of: ${def.values.join(", ")}`,
      `--${key} ${def.values.join("|")}`,
    );
  return parsed.data;
}

/** A typed engine subcommand: `run` receives values typed from `options`; the usage line is generated from them. */
export function defineCommand<const O extends OptionDefs>(def: CommandDef<O>): Command {
  const entries = Object.entries(def.options) as Array<[string, OptionDef]>;
  const usage = [def.name, def.args, ...entries.map(([key, o]) => _usageOf(key, o)), COMMON_USAGE]
    .filter(Boolean)
    .join(" ");
  return {
    name: def.name,
    summary: def.summary,
    usage,
    positionals: def.args !== undefined,
    alwaysExitZero: def.alwaysExitZero === true,
    namesCommandsItself: def.namesCommandsItself === true,
    parseOptions: Object.fromEntries(entries.map(([key, o]) => [key, _parseOption(o)])),
    run(ctx, raw, positionals) {
      const values = Object.fromEntries(
        entries.map(([key, o]) => [key, _value(def.name, key, o, raw[key])]),
      );
      return def.run(ctx, values as OptionValues<O>, positionals);
    },
  };
}
