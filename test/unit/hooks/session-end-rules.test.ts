import { describe, expect, it } from "vitest";
import { EMPTY_DIGEST, type TranscriptDigest } from "../../../lib/context/transcript-digest.ts";
import {
  activitySince,
  isTrivialSession,
  reasonLabel,
  sessionEndSkip,
  type SkipFacts,
} from "../../../lib/hooks/session-end-rules.ts";

const SAVED = "2026-11-29T20:00:00Z";
const HEAD_A = "a".repeat(40);
const HEAD_B = "b".repeat(40);
const before = "2026-11-29T19:59:59.900Z";
const sameSecond = "2026-11-29T20:00:00.700Z";
const after = "2026-11-29T20:00:01.200Z";

const digest = (over: Partial<TranscriptDigest> = {}): TranscriptDigest => ({
  ...EMPTY_DIGEST,
  ...over,
});
const req = (at: string) => ({ text: "do it", at, uuid: at });
const busy = digest({
  requestCount: 3,
  requests: [req(before), req(before)],
  changed: [{ path: "a.ts", count: 1, lastAt: before }],
});

const facts = (over: Partial<SkipFacts> = {}): SkipFacts => ({
  rootIsHomeOrSlash: false,
  root: "/home/u/proj",
  digest: busy,
  transcriptPath: "/t.jsonl",
  previous: null,
  commitsSincePrevious: () => 0,
  headNow: () => HEAD_A,
  ...over,
});

describe("reasonLabel", () => {
  it.each([
    ["clear", "clear"],
    ["prompt_input_exit", "prompt_input_exit"],
    ["bypass_permissions_disabled", "bypass_permissions_disabled"],
    ["Some New Reason!", "some-new-reason"],
    ["", "unknown"],
    [undefined, "unknown"],
    [42, "unknown"],
    ["x".repeat(80), "x".repeat(40)],
  ])("%j -> %s", (raw, want) => expect(reasonLabel(raw)).toBe(want));
});

describe("isTrivialSession", () => {
  it.each<[string, Partial<TranscriptDigest>, boolean]>([
    ["nothing at all", {}, true],
    ["one request", { requestCount: 1 }, true],
    ["two requests", { requestCount: 2 }, false],
    [
      "one request and a changed file",
      { requestCount: 1, changed: [{ path: "a", count: 1, lastAt: null }] },
      false,
    ],
    ["one request and a todo list", { requestCount: 1, todos: [] }, false],
    ["history cut short by the budget", { requestCount: 1, truncated: true }, false],
  ])("%s -> %s", (_name, over, want) => expect(isTrivialSession(digest(over))).toBe(want));
});

describe("activitySince", () => {
  it.each<[string, Partial<TranscriptDigest>, string[]]>([
    [
      "all before",
      {
        requests: [req(before)],
        changed: [{ path: "a", count: 1, lastAt: before }],
        todosAt: before,
      },
      [],
    ],
    [
      "within the saved second (the /checkpoint's own turn)",
      { requests: [req(sameSecond)], todosAt: sameSecond },
      [],
    ],
    ["a request after", { requests: [req(before), req(after)] }, ["1 request(s)"]],
    ["a file after", { changed: [{ path: "a", count: 2, lastAt: after }] }, ["1 changed file(s)"]],
    ["todos after", { todosAt: after }, ["the todo list"]],
    ["no timestamps at all", { requests: [{ text: "x", at: null, uuid: null }] }, []],
  ])("%s", (_name, over, want) => expect(activitySince(digest(over), SAVED)).toEqual(want));

  it("an unreadable save time counts as activity (write rather than lose work)", () => {
    expect(activitySince(digest(), "yesterday")).toHaveLength(1);
  });
});

describe("sessionEndSkip", () => {
  const prev = { file: "/c/2026-11-29T2000-x.md", savedAt: SAVED };
  it.each<[string, Partial<SkipFacts>, string | null]>([
    ["$HOME or /", { rootIsHomeOrSlash: true }, "outside-project"],
    ["transcript missing", { digest: null }, "no-transcript"],
    ["trivial", { digest: digest({ requestCount: 1 }) }, "trivial"],
    ["busy, no previous checkpoint", {}, null],
    ["busy, nothing since the previous checkpoint", { previous: prev }, "unchanged"],
    [
      "a commit since the previous checkpoint",
      { previous: prev, commitsSincePrevious: () => 1 },
      null,
    ],
    [
      "a request since the previous checkpoint",
      { previous: prev, digest: { ...busy, requests: [req(after)] } },
      null,
    ],
  ])("%s -> %s", (_name, over, want) =>
    expect(sessionEndSkip(facts(over))?.skip ?? null).toBe(want),
  );

  it("asks git only when nothing else changed", () => {
    let asked = 0;
    const count = () => ((asked += 1), 0);
    sessionEndSkip(
      facts({ previous: prev, digest: { ...busy, todosAt: after }, commitsSincePrevious: count }),
    );
    expect(asked).toBe(0);
    sessionEndSkip(facts({ previous: prev, commitsSincePrevious: count }));
    expect(asked).toBe(1);
  });

  describe("with the previous checkpoint's `## Head`", () => {
    const recorded = { ...prev, head: HEAD_A };
    // git log --since=<Saved at> also lists a commit made in the saved second before the save:
    // with the head recorded, that commit is the one the previous checkpoint already saw.
    const sameSecondCommit = () => 1;

    it("HEAD unchanged: unchanged, whatever git log since the saved second says", () => {
      expect(
        sessionEndSkip(facts({ previous: recorded, commitsSincePrevious: sameSecondCommit }))?.skip,
      ).toBe("unchanged");
    });

    it("HEAD moved: a new snapshot", () => {
      expect(sessionEndSkip(facts({ previous: recorded, headNow: () => HEAD_B }))).toBeNull();
    });

    it("recorded (none) and still no commit: unchanged; a first commit since: a new snapshot", () => {
      const none = { ...prev, head: null };
      expect(sessionEndSkip(facts({ previous: none, headNow: () => null }))?.skip).toBe(
        "unchanged",
      );
      expect(sessionEndSkip(facts({ previous: none, headNow: () => HEAD_A }))).toBeNull();
    });

    it("runs no git log, and reads HEAD only when nothing else changed", () => {
      let logs = 0;
      let heads = 0;
      const over = {
        previous: recorded,
        commitsSincePrevious: () => ((logs += 1), 0),
        headNow: () => ((heads += 1), HEAD_A),
      };
      sessionEndSkip(facts({ ...over, digest: { ...busy, todosAt: after } }));
      expect(heads).toBe(0);
      sessionEndSkip(facts(over));
      expect([logs, heads]).toEqual([0, 1]);
    });

    it("an older checkpoint without it keeps the time rule", () => {
      expect(
        sessionEndSkip(facts({ previous: prev, commitsSincePrevious: sameSecondCommit })),
      ).toBeNull();
    });
  });

  it("names the checkpoint that is still current", () => {
    expect(sessionEndSkip(facts({ previous: prev }))).toMatchObject({
      skip: "unchanged",
      previous: prev.file,
    });
  });
});
