// Transcript lines in the shape Claude Code writes them (see test/fixtures/transcripts), for
// the SessionEnd tests: typed requests, file edits, todo lists, replies.

let n = 0;
const base = (sid: string, at: string) => {
  n += 1;
  return {
    parentUuid: `p-${n}`,
    isSidechain: false,
    userType: "external",
    cwd: "/home/u/proj",
    sessionId: sid,
    version: "2.1.197",
    gitBranch: "feat/x",
    uuid: `u-${n}`,
    timestamp: at,
  };
};

export function userLine(sid: string, at: string, text: string): string {
  return JSON.stringify({
    ...base(sid, at),
    type: "user",
    message: { role: "user", content: text },
  });
}

export function replyLine(sid: string, at: string, text = "done"): string {
  return JSON.stringify({
    ...base(sid, at),
    type: "assistant",
    message: {
      id: `msg_${n}`,
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: [{ type: "text", text }],
      usage: { input_tokens: 3, output_tokens: 5 },
    },
  });
}

function toolUse(sid: string, at: string, name: string, input: Record<string, unknown>): string {
  return JSON.stringify({
    ...base(sid, at),
    type: "assistant",
    message: {
      id: `msg_${n}`,
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: [{ type: "tool_use", id: `toolu_${n}`, name, input }],
      usage: { input_tokens: 3, output_tokens: 5 },
    },
  });
}

function toolResult(sid: string, at: string, text: string, isError = false): string {
  return JSON.stringify({
    ...base(sid, at),
    type: "user",
    message: {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: `toolu_${n - 1}`,
          content: text,
          ...(isError ? { is_error: true } : {}),
        },
      ],
    },
  });
}

export function editLines(sid: string, at: string, file: string): string[] {
  return [
    toolUse(sid, at, "Edit", { file_path: file, old_string: "a", new_string: "b" }),
    toolResult(sid, at, `The file ${file} has been updated.`),
  ];
}

export function todoLines(
  sid: string,
  at: string,
  todos: Array<{ content: string; status: string }>,
): string[] {
  return [
    toolUse(sid, at, "TodoWrite", { todos: todos.map((t) => ({ ...t, activeForm: t.content })) }),
    toolResult(sid, at, "Todos have been modified successfully."),
  ];
}

/** The /checkpoint skill's own turn after its save: a Bash tool call, its result, the reply. */
export function checkpointTurnLines(sid: string, at: string): string[] {
  return [
    toolUse(sid, at, "Bash", { command: "node quoin-checkpoint.cjs save --json" }),
    toolResult(sid, at, '{"checkpoint":"x.md"}'),
    replyLine(sid, at, "Saved the checkpoint."),
  ];
}

export function transcriptText(lines: ReadonlyArray<string | string[]>): string {
  return `${lines.flat().join("\n")}\n`;
}

/** A Bash call and its result; `sidechain` writes them as a subagent's lines. */
export function bashLines(
  sid: string,
  at: string,
  command: string,
  output: string,
  opts: { isError?: boolean; sidechain?: boolean } = {},
): string[] {
  const mark = (line: string) =>
    opts.sidechain ? JSON.stringify({ ...JSON.parse(line), isSidechain: true }) : line;
  return [
    mark(toolUse(sid, at, "Bash", { command })),
    mark(toolResult(sid, at, output, opts.isError === true)),
  ];
}
