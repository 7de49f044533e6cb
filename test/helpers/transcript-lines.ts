import * as fs from "node:fs";
import * as path from "node:path";

// Hand-made transcript lines in the client's shape, and the real fixture transcripts by name.

export const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/transcripts");
export const fixtureLines = (name: string): string[] =>
  fs
    .readFileSync(path.join(FIXTURES, name), "utf8")
    .split("\n")
    .filter((l) => l !== "");

export const SPOTTER = "spotter-4d5611e5-241a-462a-8d15-5122611a9569.jsonl";
export const SPOTTER_SID = "4d5611e5-241a-462a-8d15-5122611a9569";
export const SPOTTER_ROOT = "/home/USER/projects/spotter-worktrees/spotter-dov";

let n = 0;
const envelope = (extra: Record<string, unknown>) =>
  JSON.stringify({
    parentUuid: "p",
    isSidechain: false,
    userType: "external",
    cwd: "/repo",
    sessionId: "s1",
    version: "2.1.197",
    timestamp: "2026-11-29T12:00:00.000Z",
    uuid: `x-${(n += 1)}`,
    ...extra,
  });

export const userLine = (content: unknown, at = "2026-11-29T12:00:00.000Z") =>
  envelope({ type: "user", timestamp: at, message: { role: "user", content } });
export const sayLine = (text: string, at = "2026-11-29T12:00:00.000Z") =>
  envelope({
    type: "assistant",
    timestamp: at,
    message: { role: "assistant", content: [{ type: "text", text }] },
  });
export const useLine = (
  id: string,
  name: string,
  input: Record<string, unknown>,
  at = "2026-11-29T12:00:00.000Z",
) =>
  envelope({
    type: "assistant",
    timestamp: at,
    message: { role: "assistant", content: [{ type: "tool_use", id, name, input }] },
  });
export const resultLine = (
  id: string,
  text: string,
  isError = false,
  toolUseResult: unknown = text,
) =>
  envelope({
    type: "user",
    message: {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: id, content: text, is_error: isError }],
    },
    toolUseResult,
  });

/** A Bash call and its result, as two lines. */
export function bash(
  id: string,
  command: string,
  output: string,
  failed = false,
  at = "2026-11-29T12:00:00.000Z",
): string[] {
  return [
    useLine(id, "Bash", { command }, at),
    resultLine(id, failed ? `Exit code 1\n${output}` : output, failed),
  ];
}
