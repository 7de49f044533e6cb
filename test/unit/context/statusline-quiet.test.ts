import { describe, expect, it } from "vitest";
import { renderStatusLine } from "../../../lib/context/statusline.ts";
import { recordedWindow } from "../../../lib/context/context-utilization.ts";
import { readKnobs } from "../../../lib/core/knobs.ts";
import { fakeDeps } from "../../helpers/memfs-deps.ts";

const CONFIG = "/home/u/.claude";
const SID = "11111111-2222-3333-4444-555555555555";
const knobs = readKnobs({}, () => {});
const draw = JSON.stringify({
  session_id: SID,
  model: { id: "claude-sonnet-4-5[1m]", display_name: "Sonnet 4.5" },
  context_window: {
    context_window_size: 1_000_000,
    current_usage: { input_tokens: 3, cache_read_input_tokens: 200_000 },
  },
});

describe("the status line with --quiet: records the window, shows only what the person's own line shows", () => {
  it("with no line of the person's: prints nothing, records 1M", () => {
    const deps = fakeDeps();
    expect(renderStatusLine(deps, draw, knobs, CONFIG, undefined, true)).toBe("");
    expect(recordedWindow(deps, CONFIG, SID)).toBe(1_000_000);
  });
  it("wrapping the person's line: prints it exactly, no gauge", () => {
    const deps = fakeDeps({ run: () => ({ status: 0, stdout: "main  ~/proj\n", stderr: "" }) });
    expect(renderStatusLine(deps, draw, knobs, CONFIG, "my-line", true)).toBe("main  ~/proj");
    expect(recordedWindow(deps, CONFIG, SID)).toBe(1_000_000);
  });
  it("without --quiet the gauge follows", () => {
    const deps = fakeDeps({ run: () => ({ status: 0, stdout: "main\n", stderr: "" }) });
    expect(renderStatusLine(deps, draw, knobs, CONFIG, "my-line")).toBe(
      "main | [Sonnet 4.5] ctx 200k of 967k (20.6%)",
    );
  });
});
