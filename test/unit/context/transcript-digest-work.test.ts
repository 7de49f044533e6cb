import { describe, expect, it } from "vitest";
import { digestLines } from "../../../lib/context/transcript-digest.ts";
import { listedItems, shownItem } from "../../../lib/context/transcript-digest-work.ts";
import { cutAtCompaction } from "../../helpers/summary-oracle.ts";
import {
  bash,
  fixtureLines,
  resultLine,
  sayLine,
  SPOTTER,
  SPOTTER_ROOT,
  SPOTTER_SID,
  useLine,
} from "../../helpers/transcript-lines.ts";

const VIEWER = "viewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl";

describe("real beads output (spotter-4d5611e5)", () => {
  it("cut at its compaction: the claimed item with its title and description head, the open list as bd ready last showed it", () => {
    const { before } = cutAtCompaction(fixtureLines(SPOTTER));
    const d = digestLines(before, { projectRoot: SPOTTER_ROOT, sessionId: SPOTTER_SID });
    expect(d.work.current).toMatchObject({
      id: "spotter-dov.3",
      title: "Implement debug JSON sidecar and expand controls in shared transcript UI",
      how: "bd update spotter-dov.3 --status in_progress",
    });
    expect(d.work.current!.text).toMatch(/^Why This Task Is Necessary With shared transcript/);
    expect(d.work.current!.text!.length).toBeLessThanOrEqual(400);
    expect(d.work.open.map((i) => i.id)).toEqual([
      "spotter-dov",
      "spotter-dov.3",
      "spotter-6lq",
      "spotter-6lq.1",
      "spotter-6lq.3",
    ]);
    expect(d.work.open[4]!.title).toBe("Instrument LiveViews with stable Playwright selectors");
  });

  it("at its end: every claimed item closed, so none is current; the closed ones leave the open list", () => {
    const d = digestLines(fixtureLines(SPOTTER), {
      projectRoot: SPOTTER_ROOT,
      sessionId: SPOTTER_SID,
    });
    expect(d.work.current).toBeNull();
    expect(d.work.open.map((i) => i.id)).toEqual(["spotter-6lq", "spotter-6lq.1", "spotter-6lq.3"]);
  });
});

describe("real TodoWrite lists (viewer-fe5e1c67)", () => {
  it("the main chain's in-progress todo is current when no tracker was used (a subagent's list is not the session's); open todos listed, at most 8", () => {
    const all = fixtureLines(VIEWER);
    const at = all.findIndex((l) =>
      l.includes('"Create Filter component for the todo-app","status":"in_progress"'),
    );
    const d = digestLines(all.slice(0, at + 1), { projectRoot: "/r" });
    expect(d.work.current).toMatchObject({
      title: "Implement state management and CRUD operations",
      how: "in progress on the todo list",
    });
    expect(d.work.open.map((i) => i.title)).toEqual(
      d
        .todos!.filter((t) => t.status !== "completed")
        .map((t) => t.content)
        .slice(0, 8),
    );
    expect(d.work.open.length).toBeGreaterThan(1);
    expect(d.work.open.length).toBeLessThanOrEqual(8);
  });
});

// Hand-made outputs, in the layouts of `gh` (non-terminal: tab-separated, `title:\t` fields) and
// of jira-cli (`--plain` tables; `issue view` with a `# Title` line and a Description rule).
const GH_VIEW = [
  "title:\tPaginate the session list",
  "state:\tOPEN",
  "author:\tsomeone",
  "labels:\tenhancement",
  "comments:\t2",
  "assignees:\t",
  "projects:\t",
  "milestone:\t",
  "number:\t42",
  "--",
  "The session list loads every session at once. Page it by 50, keep the filter across pages.",
  "",
  "Done when: the list answers in under 200 ms with 5,000 sessions.",
].join("\n");
const GH_LIST = [
  "42\tOPEN\tPaginate the session list\tenhancement\t2026-11-30T10:00:00Z",
  "41\tOPEN\tDark mode for the viewer\t\t2026-11-29T10:00:00Z",
  "40\tOPEN\tCrash on an empty transcript\tbug\t2026-11-28T10:00:00Z",
].join("\n");
const JIRA_LIST = [
  "TYPE\tKEY\tSUMMARY\tSTATUS\tASSIGNEE",
  "Story\tSPOT-7\tExport annotations as Markdown\tTo Do\tMe",
  "Bug\tSPOT-9\tTimestamps drift by one hour\tIn Progress\tMe",
].join("\n");
const JIRA_VIEW = [
  "🐞 Bug  🚧 In Progress  ⌛ Mon, 30 Nov 26  👷 Me  🔑️ SPOT-9  💭 0 comments",
  "# Timestamps drift by one hour",
  "⏱️  Mon, 30 Nov 26  🔎 Medium",
  "",
  "------------------------ Description ------------------------",
  "",
  "Times are shown in UTC+1 on a UTC machine. Use the user's zone everywhere.",
  "",
  "------------------------ 0 Comments ------------------------",
].join("\n");

describe("hand-made gh and jira-cli outputs", () => {
  it("gh: issue view's title and body head, issue list, issue develop claims, issue close closes", () => {
    expect(shownItem("gh issue view 42", GH_VIEW)).toEqual({
      id: "#42",
      title: "Paginate the session list",
      text: "The session list loads every session at once. Page it by 50, keep the filter across pages. Done when: the list answers in under 200 ms with 5,000 sessions.",
    });
    const d = digestLines(
      [
        ...bash("l", "gh issue list", GH_LIST),
        ...bash("v", "gh issue view 42", GH_VIEW),
        ...bash("d", "gh issue develop 42 --checkout", "github.com/o/r/tree/42-paginate"),
        ...bash("c", "gh issue close 40", "Closed issue #40"),
      ],
      { projectRoot: "/repo" },
    );
    expect(d.work.current).toMatchObject({ id: "#42", title: "Paginate the session list" });
    expect(d.work.current!.how).toBe("gh issue develop 42 --checkout");
    expect(d.work.open.map((i) => i.id)).toEqual(["#42", "#41"]);
  });

  it("jira-cli: the plain list, the view's description, a move to In Progress claims", () => {
    expect(listedItems("jira issue list --plain", JIRA_LIST)).toEqual([
      { id: "SPOT-7", title: "Export annotations as Markdown" },
      { id: "SPOT-9", title: "Timestamps drift by one hour" },
    ]);
    const d = digestLines(
      [
        ...bash("l", "jira issue list --plain", JIRA_LIST),
        ...bash("v", "jira issue view SPOT-9 --plain", JIRA_VIEW),
        ...bash("m", 'jira issue move SPOT-9 "In Progress"', "✓ Issue transitioned"),
      ],
      { projectRoot: "/repo" },
    );
    expect(d.work.current).toMatchObject({
      id: "SPOT-9",
      title: "Timestamps drift by one hour",
      text: "Times are shown in UTC+1 on a UTC machine. Use the user's zone everywhere.",
    });
  });

  it("the id in the model's last words, short form included, names the current item", () => {
    const d = digestLines(
      [
        ...bash(
          "r",
          "bd ready",
          "1. [● P1] [task] spotter-gqc.6: Close project review session\n2. [● P1] [task] spotter-gqc.7: Launch project review conversation",
        ),
        ...bash(
          "u",
          "bd update spotter-gqc.5 --status in_progress",
          "✓ Updated issue: spotter-gqc.5",
        ),
        ...bash("c", "bd close spotter-gqc.5", "✓ Closed spotter-gqc.5"),
        sayLine("Now gqc.6 - close project review session."),
      ],
      { projectRoot: "/repo" },
    );
    expect(d.work.current).toMatchObject({
      id: "spotter-gqc.6",
      title: "Close project review session",
      how: "named in the model's last words",
    });
    expect(d.work.open.map((i) => i.id)).toEqual(["spotter-gqc.6", "spotter-gqc.7"]);
  });

  it("TaskCreate then TaskUpdate in_progress (hand-made, the client's tool shapes): the task's subject and description", () => {
    const d = digestLines(
      [
        useLine("t1", "TaskCreate", {
          subject: "Wire the parser",
          description: "Call parse() from the CLI; keep --json.",
        }),
        resultLine("t1", "Task #3 created successfully: Wire the parser", false, {
          task: { id: "3", subject: "Wire the parser" },
        }),
        useLine("t2", "TaskUpdate", { taskId: "3", status: "in_progress" }),
        resultLine("t2", "Updated task #3 status"),
      ],
      { projectRoot: "/repo" },
    );
    expect(d.work.current).toEqual({
      id: "task#3",
      title: "Wire the parser",
      text: "Call parse() from the CLI; keep --json.",
      how: "TaskUpdate in_progress",
    });
  });
});
