import { describe, expect, it } from "vitest";
import { appendBlockedPrompt, parseBlockedPrompts } from "../../../lib/store/pending-prompts.ts";

describe("pending prompts", () => {
  it("appends entries, tags task notifications, and keeps a header-like line in a prompt", () => {
    let text = appendBlockedPrompt(
      null,
      "first\n=== BLOCKED PROMPT [x] ===\nmore",
      "2026-11-29T10:00:00Z",
    );
    text = appendBlockedPrompt(
      text,
      "<task-notification>done</task-notification>",
      "2026-11-29T10:01:00Z",
    );
    expect(text.split("\n")[0]).toBe("=== BLOCKED PROMPT [2026-11-29T10:00:00Z] ===");
    expect(text).toContain(
      "=== BLOCKED PROMPT [2026-11-29T10:01:00Z] [non-replayable:task-notification] ===",
    );
    expect(parseBlockedPrompts(text)).toEqual([
      {
        timestamp: "2026-11-29T10:00:00Z",
        nonReplayable: false,
        nonReplayableKind: undefined,
        text: "first\n=== BLOCKED PROMPT [x] ===\nmore",
      },
      {
        timestamp: "2026-11-29T10:01:00Z",
        nonReplayable: true,
        nonReplayableKind: "task-notification",
        text: "<task-notification>done</task-notification>",
      },
    ]);
  });
  it("reads a legacy file as one entry and a preamble as an implicit first entry", () => {
    expect(parseBlockedPrompts("old prompt\n")).toEqual([
      { timestamp: "legacy", nonReplayable: false, text: "old prompt" },
    ]);
    expect(
      parseBlockedPrompts("pre\n=== BLOCKED PROMPT [t] ===\nx\n").map((e) => e.timestamp),
    ).toEqual(["legacy", "t"]);
  });
});
