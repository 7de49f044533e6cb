/** One main-chain assistant line with the usage a real client writes (see the fixtures). */
export function assistantLine(contextTokens: number, model = "claude-opus-4-6", extra: Record<string, unknown> = {}): string {
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
      usage: { input_tokens: 3, cache_creation_input_tokens: 100, cache_read_input_tokens: contextTokens - 103, output_tokens: 20 },
    },
    ...extra,
  });
}

export function transcriptWithTokens(contextTokens: number, model?: string): string {
  return `${JSON.stringify({ type: "user", message: { role: "user", content: "hi" } })}\n${assistantLine(contextTokens, model)}\n`;
}
