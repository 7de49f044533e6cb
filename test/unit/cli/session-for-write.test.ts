import { describe, expect, it } from "vitest";
import { buildContext } from "../../../cli/cli-context.ts";
import { sessionForWrite } from "../../../cli/session-for-write.ts";
import { memWorld, SID } from "../../helpers/save-deps.ts";
import { refusal } from "../../helpers/narrow.ts";

function ctx(flag: string | undefined, env: Record<string, string> = {}) {
  const w = memWorld();
  return buildContext(
    { ...w.deps, env },
    { session: flag, json: true },
    { stdout: () => {}, readStdin: () => "" },
  );
}

describe("the session id for a command that writes", () => {
  it.each([
    ["a valid --session", SID, {}, { ok: true, id: SID }],
    ["--session ''", "", {}, { ok: true, id: null }],
    ["--session unknown", "unknown", {}, { ok: true, id: null }],
    ["CLAUDE_CODE_SESSION_ID", undefined, { CLAUDE_CODE_SESSION_ID: SID }, { ok: true, id: SID }],
    [
      "CLAUDE_CODE_SESSION_ID=unknown",
      undefined,
      { CLAUDE_CODE_SESSION_ID: "unknown" },
      { ok: true, id: null },
    ],
    ["nothing at all", undefined, {}, { ok: true, id: null }],
  ] as const)("%s", (_label, flag, env, want) => {
    expect(sessionForWrite(ctx(flag, env))).toMatchObject(want);
  });

  it.each([
    ["--session ../../etc/x", "../../etc/x", {}],
    ["CLAUDE_CODE_SESSION_ID=a/b", undefined, { CLAUDE_CODE_SESSION_ID: "a/b" }],
  ] as const)("refuses %s with the reason", (_label, flag, env) => {
    const out = sessionForWrite(ctx(flag, env));
    expect(out.ok).toBe(false);
    expect(refusal(out).reason).toContain("is not valid");
  });
});
