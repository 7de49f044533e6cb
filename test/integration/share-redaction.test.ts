import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { shareCommand } from "../../cli/commands/share.ts";
import { checkpointText, shareWorld } from "../helpers/share-world.ts";
import { SECRET_FORMS } from "../helpers/secret-forms.ts";

// Everything a share pushes is redacted: none of the 25 secret forms, and no home folder of any
// user, reaches the bare remote's objects (blobs and commit messages alike).

const SID = "aaaaaaaa-1111-4222-8333-444444444444";
const TODAY = new Date().toISOString().slice(0, 10);

describe("share through a bare remote", () => {
  it("pushes none of the 25 secret forms and no /home/<name> or /Users/<name>", () => {
    const w = shareWorld();
    const a = w.clone("a");
    const extra = [
      ...SECRET_FORMS.map(([, line]) => `- ${line}`),
      "- the review notes are in /home/bob/review.md and /Users/carol/Desktop/plan.txt",
    ].join("\n");
    a.writeCheckpoint(
      `${TODAY}T0912-payments.md`,
      checkpointText({
        root: a.root,
        home: a.home,
        sid: SID,
        task: "payments",
        savedAt: `${TODAY}T09:12:00Z`,
        extra: `${extra}\n`,
      }),
    );
    const r = a.cli([shareCommand], ["share", "--session", SID, "--json"]);
    expect(r.json).toMatchObject({ ok: true, pushed: true });
    const objects = spawnSync("git", ["cat-file", "--batch-all-objects", "--batch"], {
      cwd: w.bare,
      encoding: "utf8",
    }).stdout;
    expect(objects).toContain("## Failures");
    const leaked = SECRET_FORMS.filter(([, , secret]) => objects.includes(secret)).map(
      ([form]) => form,
    );
    expect(leaked).toEqual([]);
    for (const home of ["/home/bob", "/Users/carol", a.home]) expect(objects).not.toContain(home);
    expect(objects).toContain("~/review.md and ~/Desktop/plan.txt");
  });
});
