import { describe, expect, it } from "vitest";
import { digestLines } from "../../../lib/context/transcript-digest.ts";
import { readTranscriptDigest } from "../../../lib/context/transcript-digest-read.ts";
import { fakeDeps } from "../../helpers/memfs-deps.ts";
import { bash } from "../../helpers/transcript-lines.ts";

// Hand-made outputs in the layout of a Linear CLI: `linear issue view` as Markdown with a
// `# KEY: Title` heading, `linear issue list` as a table with ID and TITLE columns.

const VIEW = [
  "# ENG-214: Retry webhooks with backoff",
  "",
  "Webhook deliveries fail once and are dropped. Retry 5 times with exponential backoff; log each try.",
].join("\n");
const LIST = [
  "ID       TITLE                          STATE",
  "ENG-214  Retry webhooks with backoff    In Progress",
  "ENG-219  Rate-limit the public API      Todo",
].join("\n");

describe("Linear CLI outputs (hand-made)", () => {
  it("issue start claims, issue view gives the title and head, issue list the open items", () => {
    const d = digestLines(
      [
        ...bash("l", "linear issue list", LIST),
        ...bash("v", "linear issue view ENG-214", VIEW),
        ...bash("s", "linear issue start ENG-214", "Started ENG-214"),
      ],
      { projectRoot: "/repo" },
    );
    expect(d.work.current).toEqual({
      id: "ENG-214",
      title: "Retry webhooks with backoff",
      text: "Webhook deliveries fail once and are dropped. Retry 5 times with exponential backoff; log each try.",
      how: "linear issue start ENG-214",
    });
    expect(d.work.open.map((i) => i.id)).toEqual(["ENG-214", "ENG-219"]);
  });

  it("the file reader's byte prefilter keeps the view and the list (a Linear output has no error mark)", () => {
    const lines = [
      ...bash("l", "linear issue list", LIST),
      ...bash("v", "linear issue view ENG-214", VIEW),
      ...bash("s", "linear issue start ENG-214", "Started ENG-214"),
    ];
    const deps = fakeDeps({ files: { "/t/s.jsonl": `${lines.join("\n")}\n` } });
    const d = readTranscriptDigest(deps.fs, "/t/s.jsonl", { projectRoot: "/repo" })!;
    expect(d.work.current?.title).toBe("Retry webhooks with backoff");
    expect(d.work.current?.text).toContain("Retry 5 times");
    expect(d.work.open.map((i) => i.id)).toEqual(["ENG-214", "ENG-219"]);
  });
});
