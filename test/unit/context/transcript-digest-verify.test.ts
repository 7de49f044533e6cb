import { describe, expect, it } from "vitest";
import { digestLines } from "../../../lib/context/transcript-digest.ts";
import { checkKind } from "../../../lib/context/transcript-digest-verify.ts";
import { segmentOf } from "../../../lib/context/transcript-digest-fixes.ts";
import {
  bash,
  fixtureLines,
  resultLine,
  SPOTTER,
  SPOTTER_ROOT,
  SPOTTER_SID,
  useLine,
} from "../../helpers/transcript-lines.ts";

// Whether the last edits were followed by a build, test or lint run. On the client spotter ran
// (2.1.39) a PostToolUse hook's compile error reached the model and not the transcript, so the
// checkpoint says that hooks ran but their words are unknown, and which checks the session ran
// (what current clients record of a hook is in transcript-digest-hooks.test.ts).

const edit = (id: string, file: string, at: string) => [
  useLine(id, "Edit", { file_path: file, old_string: "a", new_string: "b" }, at),
  resultLine(id, "The file has been updated."),
];
const digest = (lines: string[]) => digestLines(lines, { projectRoot: "/repo" }).unverified;

describe("the state of the last edit", () => {
  it("spotter-4d5611e5 cut before its compaction: the last two writes were never compiled", () => {
    const lines = fixtureLines(SPOTTER).slice(0, 753);
    const d = digestLines(lines, { projectRoot: SPOTTER_ROOT, sessionId: SPOTTER_SID });
    expect(d.unverified).toBe(
      "lib/spotter_web/components/transcript_components.ex and lib/spotter_web/live/transcript_computers.ex were changed (last at 2026-02-12T20:29:01Z) and no build or test command ran since: their state is unverified; run mix compile / mix test / mix credo first; PostToolUse hooks (post-edit-check.js, post-write-eslint.js, +4 more) ran after the edit, but what they told the model is not in the transcript",
    );
  });

  it("a check after the edit (passed or failed) leaves no such line", () => {
    const before = [
      ...bash("c0", "mix test", "10 tests, 0 failures", false, "2026-11-29T11:00:00.000Z"),
      ...edit("e1", "/repo/lib/a.ex", "2026-11-29T11:01:00.000Z"),
    ];
    expect(digest(before)).toBe(
      "lib/a.ex was changed at 2026-11-29T11:01:00Z and no build or test command ran since: its state is unverified; run mix test first",
    );
    expect(
      digest([...before, ...bash("c1", "mix compile 2>&1 | head -20", "Compiling 1 file")]),
    ).toBeNull();
    expect(
      digest([...before, ...bash("c1", "cd /repo && mix test", "1 failure", true)]),
    ).toBeNull();
  });

  it("an edit with no check in the session, and edits no check needs", () => {
    expect(digest(edit("e1", "/repo/src/x.ts", "2026-11-29T11:01:00.000Z"))).toBe(
      "src/x.ts was changed at 2026-11-29T11:01:00Z and no build or test command ran since: its state is unverified; run the project's build and tests first",
    );
    expect(
      digest([
        ...bash("c0", "npm test", "ok"),
        ...edit("e1", "/repo/README.md", "2026-11-29T11:01:00.000Z"),
      ]),
    ).toBeNull();
    // a command that checks nothing does not count as a check
    expect(
      digest([
        ...edit("e1", "/repo/src/x.ts", "2026-11-29T11:01:00.000Z"),
        ...bash("g", "git status", "clean"),
      ]),
    ).toContain("src/x.ts was changed");
  });

  it("knows the common checks, and not other commands", () => {
    const kind = (c: string) => checkKind(segmentOf(c)!);
    expect(kind("mix compile")).toBe("mix compile");
    expect(kind("npm run build")).toBe("npm run build");
    expect(kind("npx tsc --noEmit")).toBe("npx tsc");
    expect(kind("cargo clippy")).toBe("cargo clippy");
    expect(kind("go test ./...")).toBe("go test");
    expect(kind("python -m pytest tests")).toBe("pytest");
    expect(kind("make")).toBe("make");
    expect(kind("npm install")).toBeNull();
    expect(kind("git push")).toBeNull();
    expect(kind("mix deps.get")).toBeNull();
  });
});
