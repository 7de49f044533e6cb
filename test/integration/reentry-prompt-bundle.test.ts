import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIST, runBundle } from "../helpers/run-bundle.ts";
import { workSessionLines } from "../helpers/transcripts.ts";

// After a compaction the model gets back only what the client's summary dropped, through the built
// hooks in the order the real clients run them: PreCompact saves, SessionStart(compact) fires, then
// the client writes the compact_boundary and its summary; the first prompt after it carries only
// what that summary dropped, and the next one nothing.

let tmp: string;
let home: string;
let project: string;
let transcript: string;
const SID = "0b6c8f9a-2222-4c3d-8e9f-0000000000c1";
const bundle = (name: string) => path.join(DIST, "hooks", `${name}.cjs`);
const env = () => ({ HOME: home, QUOIN_CONTEXT_WINDOW: "200000" });
const base = () => ({ session_id: SID, transcript_path: transcript, cwd: project });

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-reentry-"));
  home = path.join(tmp, "home");
  project = path.join(home, "proj");
  fs.mkdirSync(path.join(project, ".git"), { recursive: true });
  fs.writeFileSync(path.join(project, ".git", "HEAD"), "ref: refs/heads/feat/csv\n");
  transcript = path.join(home, ".claude", "projects", "-proj", `${SID}.jsonl`);
  fs.mkdirSync(path.dirname(transcript), { recursive: true });
  fs.writeFileSync(transcript, `${workSessionLines(project).join("\n")}\n`);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const contextOf = (stdout: string): string =>
  stdout.trim() === ""
    ? ""
    : ((JSON.parse(stdout) as { hookSpecificOutput?: { additionalContext?: string } })
        .hookSpecificOutput?.additionalContext ?? "");

describe("the built hooks around a compaction", () => {
  it("the first prompt after it carries only what the summary dropped, once", () => {
    const pre = runBundle(bundle("precompact"), [], {
      input: JSON.stringify({ ...base(), hook_event_name: "PreCompact", trigger: "manual" }),
      env: env(),
    });
    expect(pre.status).toBe(0);
    const start = runBundle(bundle("sessionstart"), [], {
      input: JSON.stringify({ ...base(), hook_event_name: "SessionStart", source: "compact" }),
      env: env(),
    });
    expect(start.status).toBe(0);
    const startNote = contextOf(start.stdout);
    expect(startNote).toContain("Saved before the compaction: ");
    expect(startNote).toContain("comes with the next prompt");
    expect(startNote).not.toContain("Newest changed files");

    // Only now does the client write the boundary and the summary (2.1.197, 2.1.332).
    const at = new Date().toISOString();
    const summary =
      'Summary: the user asked "Add CSV export to the report page". We edited lib/csv-export.ts.';
    fs.appendFileSync(
      transcript,
      `${JSON.stringify({ type: "system", subtype: "compact_boundary", timestamp: at, content: "Conversation compacted" })}\n${JSON.stringify({ type: "user", isCompactSummary: true, timestamp: at, message: { role: "user", content: summary } })}\n`,
    );
    const prompt = (p: string) =>
      runBundle(bundle("userpromptsubmit"), [], {
        input: JSON.stringify({ ...base(), hook_event_name: "UserPromptSubmit", prompt: p }),
        env: env(),
      });
    const first = prompt("what next?");
    expect(first.status).toBe(0);
    const note = contextOf(first.stdout);
    expect(note).toContain("The summary kept 1 of 2 paths, 1 of 2 requests and 0 of 2 todos");
    expect(note).toContain("Newest changed file: lib/csv-export.ts");
    expect(note).toContain("Paths it dropped: lib/report.ts");
    expect(note).toContain("now wire the download button");
    expect(note).not.toContain("Add CSV export");
    expect(note.length).toBeLessThan(2000);
    expect(first.stdout.trim().split("\n")).toHaveLength(1);

    const second = prompt("and then?");
    expect(second.status).toBe(0);
    expect(contextOf(second.stdout)).not.toContain("Saved before the compaction");
  });
});
