import { describe, expect, it } from "vitest";
import { branchNamesTask, chooseTask, requestSlug } from "../../../lib/store/task-name.ts";

describe("the task rule", () => {
  it("takes --task, else the session-state task, else a named branch, else a slug of the first request", () => {
    const all = {
      given: "Parser Rewrite",
      sessionState: "state-task",
      branch: "feat/x",
      firstRequest: "Fix the login bug please",
    };
    expect(chooseTask(all)).toMatchObject({ task: "parser-rewrite", source: "given" });
    expect(chooseTask(all).warning).toContain("reduced to 'parser-rewrite'");
    expect(chooseTask({ ...all, given: undefined })).toEqual({
      task: "state-task",
      source: "session-state",
    });
    expect(chooseTask({ ...all, given: "", sessionState: null })).toEqual({
      task: "feat-x",
      source: "branch",
    });
    expect(chooseTask({ firstRequest: all.firstRequest, branch: "main" })).toEqual({
      task: "fix-the-login-bug-please",
      source: "first-request",
    });
    expect(chooseTask({})).toEqual({ task: "unknown", source: "none" });
  });

  it("main, master, trunk, a detached HEAD and an unreadable branch name no task", () => {
    for (const b of ["main", "master", "trunk", "HEAD", "unknown", "", null])
      expect(branchNamesTask(b)).toBe(false);
    expect(branchNamesTask("feature/spotter")).toBe(true);
    expect(
      chooseTask({
        branch: "HEAD",
        firstRequest: "Add  <b>CSV</b> export to the report page, then deploy it to staging",
      }).task,
    ).toBe("add-csv-export-to-the-report");
  });

  it("slugs are short, ASCII and never empty strings", () => {
    expect(requestSlug("   ")).toBeNull();
    expect(requestSlug("???")).toBeNull();
    expect(requestSlug("a".repeat(100))).toHaveLength(40);
    expect(requestSlug("Überprüfe die Datei")).toMatch(/^[a-z0-9-]+$/);
  });
});
