import { describe, expect, it } from "vitest";
import { parseHookInput, userPromptSubmitSchema, capText } from "../../../lib/hooks/hook-io.ts";
import { okValue } from "../../helpers/narrow.ts";

describe("hook stdin", () => {
  it.each([
    ["not json", "is not JSON"],
    ["[1,2]", "payload"],
    [
      JSON.stringify({ session_id: 5, hook_event_name: "UserPromptSubmit", prompt: "x" }),
      "session_id",
    ],
    [JSON.stringify({ session_id: "s", hook_event_name: "UserPromptSubmit" }), "prompt"],
    [JSON.stringify({ session_id: "s", hook_event_name: "Stop", prompt: "x" }), "hook_event_name"],
  ])("refuses %s with one line naming the problem", (raw, where) => {
    const r = parseHookInput(userPromptSubmitSchema(), raw, "UserPromptSubmit");
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toContain(where);
      expect(r.reason).not.toContain("\n");
    }
  });
  it("keeps unknown fields of newer clients", () => {
    const r = parseHookInput(
      userPromptSubmitSchema(),
      JSON.stringify({
        session_id: "s",
        hook_event_name: "UserPromptSubmit",
        prompt: "x",
        effort: { level: "high" },
      }),
      "UserPromptSubmit",
    );
    expect((okValue(r).value as Record<string, unknown>)["effort"]).toEqual({ level: "high" });
  });
  it("caps model-facing text at 2,000 characters", () => {
    expect(capText("x".repeat(5000))).toHaveLength(2000);
  });
});
