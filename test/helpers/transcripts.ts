/** One main-chain assistant line with the usage a real client writes (see the fixtures). */
export function assistantLine(
  contextTokens: number,
  model = "claude-opus-4-6",
  extra: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    parentUuid: "p",
    isSidechain: false,
    userType: "external",
    type: "assistant",
    uuid: "a",
    timestamp: "2026-11-29T11:59:00.000Z",
    message: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model,
      content: [{ type: "text", text: "done" }],
      usage: {
        input_tokens: 3,
        cache_creation_input_tokens: 100,
        cache_read_input_tokens: contextTokens - 103,
        output_tokens: 20,
      },
    },
    ...extra,
  });
}

export function transcriptWithTokens(contextTokens: number, model?: string): string {
  return `${JSON.stringify({ type: "user", message: { role: "user", content: "hi" } })}\n${assistantLine(contextTokens, model)}\n`;
}

/** A short session as Claude Code writes it: two typed requests, an Edit, a Read and a TodoWrite, each with its result. */
export function workSessionLines(root: string, tokens = 20_000): string[] {
  const at = (m: number) => `2026-11-29T11:${String(m).padStart(2, "0")}:00.000Z`;
  const user = (m: number, content: unknown, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      type: "user",
      isSidechain: false,
      uuid: `u${m}`,
      timestamp: at(m),
      message: { role: "user", content },
      ...extra,
    });
  const tool = (m: number, id: string, name: string, input: unknown) =>
    JSON.stringify({
      type: "assistant",
      isSidechain: false,
      uuid: `a${m}`,
      timestamp: at(m),
      message: {
        role: "assistant",
        model: "claude-opus-4-6",
        content: [{ type: "tool_use", id, name, input }],
        usage: { input_tokens: tokens, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
      },
    });
  const result = (m: number, id: string) =>
    user(m, [{ type: "tool_result", tool_use_id: id, content: "ok" }]);
  return [
    user(1, "Add CSV export to the report page"),
    tool(2, "t1", "Read", { file_path: `${root}/lib/report.ts` }),
    result(2, "t1"),
    tool(3, "t2", "Edit", {
      file_path: `${root}/lib/csv-export.ts`,
      old_string: "a",
      new_string: "b",
    }),
    result(3, "t2"),
    tool(4, "t3", "TodoWrite", {
      todos: [
        { content: "Write the exporter", status: "completed", activeForm: "Writing" },
        { content: "Wire the download button", status: "in_progress", activeForm: "Wiring" },
      ],
    }),
    result(4, "t3"),
    user(5, "now wire the download button"),
  ];
}
