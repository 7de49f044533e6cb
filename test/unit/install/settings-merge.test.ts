import { describe, expect, it } from "vitest";
import {
  mergeInstall,
  mergeUninstall,
  type OwnedHook,
} from "../../../lib/install/settings-merge.ts";
import { ownedHookCommands } from "../../../lib/install/settings-owned.ts";
import { statusLineCommand, unwrapStatusLine } from "../../../lib/install/settings-statusline.ts";

const STATUSLINE = 'node "/h/.claude/quoin-checkpoint/statusline.cjs"';
const hook = (event: string, name: string, matcher?: string): OwnedHook => ({
  event,
  group: {
    ...(matcher ? { matcher } : {}),
    hooks: [
      {
        type: "command",
        command: `node "/h/.claude/quoin-checkpoint/hooks/${name}.cjs"`,
        timeout: 15,
      },
    ],
  },
});
const HOOKS = [
  hook("SessionStart", "sessionstart", "startup|resume|clear|compact"),
  hook("UserPromptSubmit", "userpromptsubmit"),
  hook("PreCompact", "precompact", "auto|manual"),
];

const USER_SETTINGS = `{
    "model": "opus",
    "permissions": { "allow": ["Bash(git status)"] },
    "hooks": {
        "UserPromptSubmit": [
            { "hooks": [ { "type": "command", "command": "echo theirs" } ] }
        ],
        "Stop": [{"hooks":[{"type":"command","command":"say done"}]}]
    },
    "env": {"A": "1"}
}
`;

function roundTrip(before: string | null, statusLine = false) {
  const installed = mergeInstall(before, {
    hooks: HOOKS,
    ...(statusLine ? { statusLine: STATUSLINE } : {}),
  });
  if (!installed.ok) throw new Error(installed.reason);
  const again = mergeInstall(installed.text, {
    hooks: HOOKS,
    ...(statusLine ? { statusLine: STATUSLINE } : {}),
  });
  if (!again.ok) throw new Error(again.reason);
  const removed = mergeUninstall(installed.text);
  if (!removed.ok) throw new Error(removed.reason);
  return {
    installed: installed.text,
    again: again.text,
    againChanged: again.changed,
    removed: removed.text,
  };
}

describe("settings merge", () => {
  it("creates a new file with the three events", () => {
    const r = roundTrip(null);
    const parsed = JSON.parse(r.installed);
    expect(Object.keys(parsed.hooks)).toEqual(["SessionStart", "UserPromptSubmit", "PreCompact"]);
    expect(parsed.hooks.PreCompact[0].matcher).toBe("auto|manual");
    expect(r.again).toBe(r.installed);
    expect(r.againChanged).toBe(false);
    expect(r.removed).toBe("{}\n");
  });

  it("keeps the user's keys and hooks byte for byte and gives the original back on uninstall", () => {
    const r = roundTrip(USER_SETTINGS);
    expect(
      r.installed.startsWith(
        '{\n    "model": "opus",\n    "permissions": { "allow": ["Bash(git status)"] },',
      ),
    ).toBe(true);
    expect(r.installed).toContain(
      '{ "hooks": [ { "type": "command", "command": "echo theirs" } ] }',
    );
    expect(r.installed).toContain('"Stop": [{"hooks":[{"type":"command","command":"say done"}]}]');
    const parsed = JSON.parse(r.installed);
    expect(parsed.hooks.UserPromptSubmit).toHaveLength(2);
    expect(parsed.env).toEqual({ A: "1" });
    expect(r.again).toBe(r.installed);
    expect(r.removed).toBe(USER_SETTINGS);
  });

  it.each([
    ["empty object", "{}"],
    ["empty object with newline", "{}\n"],
    ["compact one-liner", '{"a":1,"hooks":{"Stop":[]}}'],
    ["empty hooks object", '{\n  "hooks": {}\n}\n'],
    ["tabs", '{\n\t"a": [1, 2],\n\t"b": {"c": null}\n}'],
  ])("round-trips %s", (_name, text) => {
    const r = roundTrip(text);
    expect(r.again).toBe(r.installed);
    JSON.parse(r.installed);
    if (text !== '{\n  "hooks": {}\n}\n') expect(r.removed).toBe(text);
  });

  it("refreshes a changed quoin entry in place instead of adding a second one", () => {
    const old = mergeInstall(null, { hooks: [hook("UserPromptSubmit", "userpromptsubmit")] });
    if (!old.ok) throw new Error(old.reason);
    const stale = old.text.replace('"timeout": 15', '"timeout": 60');
    const fresh = mergeInstall(stale, { hooks: [hook("UserPromptSubmit", "userpromptsubmit")] });
    if (!fresh.ok) throw new Error(fresh.reason);
    expect(fresh.text).toBe(old.text);
  });

  it("refuses malformed JSON with line and column", () => {
    const bad = '{\n  "a": 1,\n  "b": tru\n}';
    const r = mergeInstall(bad, { hooks: HOOKS });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toContain("line 3, column 8");
    expect(mergeUninstall(bad).ok).toBe(false);
  });

  it.each([
    [
      '{\n  "hooks": {},\n  "hooks": {"Stop": []}\n}\n',
      'key "hooks" appears twice in the top level (again at line 3, column 3)',
    ],
    [
      '{"hooks": {"PreCompact": [], "PreCompact": []}}',
      'key "PreCompact" appears twice in "hooks"',
    ],
    [
      '{"statusLine": {"command": "a", "command": "b"}}',
      'key "command" appears twice in "statusLine"',
    ],
  ])("refuses a key written twice where it edits: %j", (text, reason) => {
    expect(mergeInstall(text, { hooks: HOOKS, statusLine: STATUSLINE })).toMatchObject({
      ok: false,
      reason: expect.stringContaining(reason),
    });
    expect(mergeUninstall(text)).toMatchObject({
      ok: false,
      reason: expect.stringContaining(reason),
    });
  });

  it("refuses a hooks value of the wrong shape", () => {
    const r = mergeInstall('{"hooks": {"PreCompact": {}}}', { hooks: HOOKS });
    expect(r).toMatchObject({ ok: false });
  });

  it("registers a status line, and wraps the user's own", () => {
    const fresh = roundTrip("{}\n", true);
    expect(JSON.parse(fresh.installed).statusLine.command).toBe(STATUSLINE);
    expect(fresh.removed).toBe("{}\n");
    const theirs = `{\n  "statusLine": {\n    "type": "command",\n    "command": "echo 'it''s' $X",\n    "padding": 1\n  }\n}\n`;
    const wrapped = roundTrip(theirs, true);
    const cmd = JSON.parse(wrapped.installed).statusLine.command as string;
    expect(cmd).toBe(statusLineCommand(STATUSLINE, "echo 'it''s' $X"));
    expect(unwrapStatusLine(cmd)).toBe("echo 'it''s' $X");
    expect(JSON.parse(wrapped.installed).statusLine.padding).toBe(1);
    expect(wrapped.again).toBe(wrapped.installed);
    expect(wrapped.removed).toBe(theirs);
  });

  it("lists only quoin's commands for doctor", () => {
    const r = mergeInstall(USER_SETTINGS, { hooks: HOOKS });
    if (!r.ok) throw new Error(r.reason);
    const owned = ownedHookCommands(r.text);
    expect(owned).toEqual({
      UserPromptSubmit: ['node "/h/.claude/quoin-checkpoint/hooks/userpromptsubmit.cjs"'],
      SessionStart: ['node "/h/.claude/quoin-checkpoint/hooks/sessionstart.cjs"'],
      PreCompact: ['node "/h/.claude/quoin-checkpoint/hooks/precompact.cjs"'],
    });
  });
});

describe("a handler the user added inside quoin's group", () => {
  const mine = { type: "command", command: "~/bin/audit-prompt", timeout: 5 };
  function withUserHandler(): string {
    const installed = mergeInstall(null, { hooks: HOOKS });
    if (!installed.ok) throw new Error(installed.reason);
    const parsed = JSON.parse(installed.text);
    parsed.hooks.UserPromptSubmit[0].hooks.push(mine);
    return `${JSON.stringify(parsed, null, 2)}\n`;
  }

  it("is kept, and a reinstall neither appends a second group nor changes anything", () => {
    const before = withUserHandler();
    const again = mergeInstall(before, { hooks: HOOKS });
    if (!again.ok) throw new Error(again.reason);
    expect(again.changed).toBe(false);
    const groups = JSON.parse(again.text).hooks.UserPromptSubmit;
    expect(groups).toHaveLength(1);
    expect(groups[0].hooks.map((h: { command: string }) => h.command)).toEqual([
      HOOKS[1]!.group.hooks[0]!.command,
      "~/bin/audit-prompt",
    ]);
  });

  it("is kept when quoin's command changes (a new install folder) and when quoin is uninstalled", () => {
    const moved = HOOKS.map((h) => ({
      ...h,
      group: {
        ...h.group,
        hooks: h.group.hooks.map((x) => ({ ...x, command: x.command.replace("/h/", "/other/") })),
      },
    }));
    const again = mergeInstall(withUserHandler(), { hooks: moved });
    if (!again.ok) throw new Error(again.reason);
    const groups = JSON.parse(again.text).hooks.UserPromptSubmit;
    expect(groups).toHaveLength(1);
    expect(groups[0].hooks.map((h: { command: string }) => h.command)).toEqual([
      moved[1]!.group.hooks[0]!.command,
      "~/bin/audit-prompt",
    ]);
    const removed = mergeUninstall(again.text);
    if (!removed.ok) throw new Error(removed.reason);
    expect(JSON.parse(removed.text).hooks).toEqual({ UserPromptSubmit: [{ hooks: [mine] }] });
  });
});
