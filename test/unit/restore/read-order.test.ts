import { describe, expect, it } from "vitest";
import { namedIn } from "../../../lib/restore/brief/read-order.ts";

// The files a model's plan names, matched against the session's own paths: by file name, or by a
// CamelCase module name whose snake case is the file's stem.

const PATHS = [
  "lib/web/live/session_live.ex",
  "test/web/live/session_live_test.exs",
  "assets/js/app.js",
  "priv/static/app.css",
  "src/WidgetList.tsx",
  "src/update.ts",
];

describe("namedIn", () => {
  it("finds files by name and by module name, in the order the text names them", () => {
    expect(namedIn("Update app.js, then SessionLive, then the WidgetList", PATHS)).toEqual([
      "assets/js/app.js",
      "lib/web/live/session_live.ex",
      "src/WidgetList.tsx",
    ]);
  });

  it("near misses: a module's test file, a name with another extension, a plain word", () => {
    // SessionLive is session_live.ex, not session_live_test.exs; app.js is not app.css
    expect(namedIn("SessionLive and app.js", PATHS)).not.toContain(
      "test/web/live/session_live_test.exs",
    );
    expect(namedIn("app.js", PATHS)).toEqual(["assets/js/app.js"]);
    expect(namedIn("the session is live; run the app", PATHS)).toEqual([]);
  });
});
