import { describe, expect, it } from "vitest";
import { parseCheckpoint } from "../../../lib/store/checkpoint-parse.ts";
import type { PreCompactInput } from "../../../lib/hooks/hook-io.ts";
import { runPreCompact, triggerLabel } from "../../../lib/hooks/pre-compact.ts";
import { hookLogPath } from "../../../lib/hooks/hook-log.ts";
import { CKPTS, MEM, memWorld, ROOT, SESSIONS, SID } from "../../helpers/save-deps.ts";
import { variant } from "../../helpers/narrow.ts";

const payload = (over: Partial<PreCompactInput> = {}): PreCompactInput => ({
  session_id: SID,
  transcript_path: `/home/u/.claude/projects/-home-u-proj/${SID}.jsonl`,
  cwd: ROOT,
  hook_event_name: "PreCompact",
  trigger: "auto",
  custom_instructions: "",
  ...over,
});

describe("precompact", () => {
  it("writes <date>-<task>-precompact.md with the skeleton sections and pending-restore naming it", () => {
    const w = memWorld({ [`${SESSIONS}/2026-11-28-parser.md`]: "x" });
    const out = runPreCompact(w.deps, payload());
    if (!out.saved) throw new Error(out.reason);
    expect(out.result.checkpoint).toBe(`${CKPTS}/2026-11-29-parser-precompact.md`);
    expect(w.fs.readFileSync(`${MEM}/pending-restore-${SID}.txt`, "utf8")).toBe(
      `${CKPTS}/2026-11-29-parser-precompact.md\n`,
    );
    const parsed = parseCheckpoint(w.fs.readFileSync(out.result.checkpoint, "utf8") as string);
    expect(parsed.status).toBe("checkpoint save (precompact, auto trigger)");
    expect(parsed.sections.map((s) => s.title)).toEqual([
      "Status",
      "Current stage",
      "Active task",
      "Branch",
      "Head",
      "Session ID",
      "Saved at",
      "Session link",
      "In-flight artifacts",
      "Notes",
      "Restore hint",
    ]);
    expect(w.fs.statSync(out.result.checkpoint).mode & 0o777).toBe(0o600);
    expect(w.runs).toEqual([]);
  });

  it("saves for a manual /compact too, and says which trigger", () => {
    const w = memWorld();
    const out = runPreCompact(
      w.deps,
      payload({ trigger: "manual", custom_instructions: "keep the tests" }),
    );
    expect(variant(out, "saved", true).trigger).toBe("manual");
    expect(triggerLabel(undefined)).toContain("auto");
  });

  it("keeps an existing pending-restore sentinel and writes nothing but its log line", () => {
    const w = memWorld({
      [`${CKPTS}/2026-11-29T2000-x.md`]: "## Status\nx\n",
      [`${MEM}/pending-restore-${SID}.txt`]: `${CKPTS}/2026-11-29T2000-x.md\n`,
    });
    const before = w.files();
    const out = runPreCompact(w.deps, payload());
    expect(out.saved).toBe(false);
    expect(w.files().filter((f) => !f.endsWith("logs/hooks.log"))).toEqual(before);
    expect(w.fs.readFileSync(hookLogPath(w.deps), "utf8")).toContain("kept as is");
  });

  it("still saves when the pending-restore sentinel names a checkpoint that is gone or outside checkpoints/; the old sentinel goes to trash", () => {
    for (const named of [`${CKPTS}/2026-11-20T2000-gone.md`, "/etc/passwd"]) {
      const w = memWorld({
        "/etc/passwd": "root",
        [`${MEM}/pending-restore-${SID}.txt`]: `${named}\n`,
      });
      const out = runPreCompact(w.deps, payload());
      if (!out.saved) throw new Error(out.reason);
      expect(w.fs.existsSync(out.result.checkpoint)).toBe(true);
      expect(w.fs.readFileSync(`${MEM}/pending-restore-${SID}.txt`, "utf8")).toBe(
        `${out.result.checkpoint}\n`,
      );
      expect(w.fs.readFileSync(`${MEM}/trash/2026-11-29/pending-restore-${SID}.txt`, "utf8")).toBe(
        `${named}\n`,
      );
    }
  });

  it("still saves while other skills hold live pidfiles, and notes them", () => {
    const w = memWorld(
      {
        [`${SESSIONS}/implement-${SID}.pidfile.lock`]: JSON.stringify({
          skill: "implement",
          session: SID,
          pid: 77,
          acquired_at: "2026-11-29T21:00:00Z",
        }),
      },
      { alive: () => true },
    );
    const out = runPreCompact(w.deps, payload());
    if (!out.saved) throw new Error(out.reason);
    expect(out.activeSkills).toBe("implement (pid 77)");
    expect(w.fs.readFileSync(out.result.checkpoint, "utf8")).toContain(
      "skills active at compaction: implement (pid 77)",
    );
  });

  it("writes the checkpoint but no sentinel for a session id that cannot be a file name", () => {
    const w = memWorld();
    const out = runPreCompact(w.deps, payload({ session_id: "../../etc/x" }));
    if (!out.saved) throw new Error(out.reason);
    expect(out.result.sentinel).toBeNull();
    expect(w.files().filter((f) => f.includes("pending-restore"))).toEqual([]);
    expect(w.files().every((f) => f.startsWith(".workflow_artifacts/"))).toBe(true);
  });
});
