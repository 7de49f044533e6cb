import { describe, expect, it } from "vitest";
import { DEFER_REFUSED, writeDeferMarker } from "../../../lib/store/defer-marker.ts";
import { nextUpFromFlags, parseSaveDocument } from "../../../lib/save/save-document.ts";
import { MEM, memWorld, SID } from "../../helpers/save-deps.ts";
import { refusal } from "../../helpers/narrow.ts";

describe("defer", () => {
  it("writes checkpoint-defer-<sid>.txt holding one ISO UTC line", () => {
    const w = memWorld();
    const out = writeDeferMarker(w.deps, w.paths, SID);
    expect(out).toMatchObject({ ok: true, file: `${MEM}/checkpoint-defer-${SID}.txt` });
    expect(w.fs.readFileSync(`${MEM}/checkpoint-defer-${SID}.txt`, "utf8")).toBe(
      "2026-11-29T21:07:26Z\n",
    );
  });

  it.each(["", "unknown", null])("refuses %j with the seed's warning and writes nothing", (sid) => {
    const w = memWorld();
    expect(writeDeferMarker(w.deps, w.paths, sid)).toEqual({ ok: false, reason: DEFER_REFUSED });
    expect(w.files()).toEqual([]);
  });

  it("refuses a session id that is not a file name, with the reason", () => {
    const w = memWorld();
    const out = writeDeferMarker(w.deps, w.paths, "../../etc/x");
    expect(out.ok).toBe(false);
    expect(refusal(out).reason).toContain("is not valid");
    expect(w.files()).toEqual([]);
  });
});

describe("the skill's JSON document for save", () => {
  it("accepts next up, blockers, in-progress and commits", () => {
    const out = parseSaveDocument(
      '{"nextUp":[{"item":"T-05","prerequisitesMet":false}],"blockers":["CI red"],"completed":[{"hash":"abc1234","subject":"x"}]}',
    );
    expect(out).toEqual({
      ok: true,
      value: {
        nextUp: [{ item: "T-05", prerequisitesMet: false }],
        blockers: ["CI red"],
        completed: [{ hash: "abc1234", subject: "x" }],
      },
    });
    expect(parseSaveDocument("  ")).toEqual({ ok: true, value: {} });
  });

  it("refuses text that is not JSON, an unknown key, or a hash that is not hex, showing an example", () => {
    for (const raw of [
      "nope",
      '{"blocker":["typo"]}',
      '{"completed":[{"hash":"zzz","subject":"x"}]}',
    ]) {
      const out = parseSaveDocument(raw);
      expect(out.ok).toBe(false);
      expect(refusal(out).reason).toContain("expected an object like");
    }
  });

  it("turns --next and --next-blocked into prerequisites yes and no", () => {
    expect(nextUpFromFlags(["a"], ["b"])).toEqual([
      { item: "a", prerequisitesMet: true },
      { item: "b", prerequisitesMet: false },
    ]);
  });
});
