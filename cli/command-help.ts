import type { Command } from "./command.ts";

// `quoin-checkpoint <command> --help`: the usage line, what the command does in plain words, and
// examples that run as printed (the engine named as this install runs it). Every command has an
// entry; test/unit/cli/command-help.test.ts runs each example.

export interface CommandHelp {
  /** what the command is for, a line or two, in words a person meets in the README */
  what: string;
  /** argument strings after the command name; each runs as printed in a project */
  examples: readonly string[];
}

export const COMMAND_HELP: Readonly<Record<string, CommandHelp>> = {
  save: {
    what: "Save where this session stands in a checkpoint file a fresh session can resume from. /checkpoint runs it with the model's notes; from a shell, pass the notes yourself.",
    examples: ['save --task "fix login" --in-progress "writing the test" --next "run the suite"'],
  },
  restore: {
    what: "Find the checkpoint to resume (the one left for this project, or a list to choose from) and print what it holds and what changed since.",
    examples: ["restore", "restore --pick 1"],
  },
  defer: {
    what: "Stop the context warning before each prompt for this session, until the next compaction or save.",
    examples: ["defer"],
  },
  cleanup: {
    what: "Move stale markers and old checkpoints to trash/ (this session's are kept). --dry-run lists them and moves nothing.",
    examples: ["cleanup --dry-run"],
  },
  status: {
    what: "How full the session's context is now, read from the end of its transcript.",
    examples: ["status", "status --json"],
  },
  statusline: {
    what: "The status-line command Claude Code runs on each redraw: records the session's context window and prints a usage gauge. It reads Claude Code's status-line JSON on stdin.",
    examples: ["statusline < /dev/null"],
  },
  successor: {
    what: "Print the `claude -p` command that hands the newest checkpoint to a fresh session; --launch runs it.",
    examples: ["successor", "successor --permission-mode acceptEdits"],
  },
  list: {
    what: "Every checkpoint on disk, newest first, numbered as restore --pick and show take them.",
    examples: ["list"],
  },
  show: {
    what: "Print one checkpoint: a number from list, a file name, or a path.",
    examples: ["show 1"],
  },
  dispatch: {
    what: "Used by the skills: whether a step may run on a smaller model (--tier) when this session has a 1M-token context.",
    examples: ["dispatch decide --tier sonnet"],
  },
  pidfile: {
    what: "Used by the skills: mark a skill running in this session (acquire, release), or list the running ones (active).",
    examples: ["pidfile active"],
  },
  doctor: {
    what: "Check node, the installed files, the settings entries, how fast the hooks start, and which context window recent sessions ran on.",
    examples: ["doctor"],
  },
  snapshot: {
    what: "A quick checkpoint from the transcript alone, left to be restored by the next session: what the prompt hook saves when the context is full.",
    examples: ["snapshot --kind forced"],
  },
  share: {
    what: "Share a checkpoint (default: this session's newest) with other clones of the repository: redacted, kept on its own git ref, and pushed unless --no-push.",
    examples: ["share --no-push"],
  },
  fetch: {
    what: "Bring the checkpoints other clones shared (list then shows them as s1, s2, ...).",
    examples: ["fetch"],
  },
};

/** The text of `<command> --help`; `engine`: how this install runs the engine (as printed). */
export function commandHelpText(command: Command, engine: string): string {
  const help = COMMAND_HELP[command.name];
  const lines = [`usage: quoin-checkpoint ${command.usage}`, "", help?.what ?? command.summary];
  if (help?.examples.length) {
    lines.push("", "example:");
    for (const e of help.examples) lines.push(`  ${engine} ${e}`);
  }
  lines.push(
    "",
    "Every command takes --cwd DIR (the project; default the current folder), --session ID (default: CLAUDE_CODE_SESSION_ID, else the newest transcript of this project, which is named when used) and --json (one JSON object on stdout).",
  );
  return `${lines.join("\n")}\n`;
}
