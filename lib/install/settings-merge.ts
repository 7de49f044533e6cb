import { isDeepStrictEqual } from "node:util";
import {
  lineColumn,
  locateJson,
  propertyOf,
  type JsonArrayNode,
  type JsonNode,
  type JsonObjectNode,
} from "../core/json-locate.ts";
import {
  appendItem,
  insertProperty,
  removeItem,
  removeProperty,
  replaceValue,
} from "../core/json-text-edit.ts";

// Merge quoin's hook entries (and optionally its status line) into a Claude Code settings.json,
// and take them out again. Pure text in, text out: every key and hook quoin does not own keeps
// its bytes; a malformed file is refused with its line and column.

/** Every hook command quoin writes contains this; nothing else is ever touched. */
const OWNED_HOOK_MARKER = "quoin-checkpoint/hooks/";
/** The status line installs before statusline.cjs wrote: the ES-module engine's subcommand (LEGACY_ENGINE_BUNDLE). */
const LEGACY_ENGINE_STATUSLINE = /quoin-checkpoint\.mjs["']? statusline( |$)/;
/** quoin's status line: the bundle (statusline.cjs; .mjs before), or the engine's subcommand older installs wrote. */
const OWNED_STATUSLINE = new RegExp(
  `quoin-checkpoint\\/statusline\\.[mc]js["']?( |$)|${LEGACY_ENGINE_STATUSLINE.source}`,
);

export interface HookGroup {
  matcher?: string;
  hooks: Array<{ type: "command"; command: string; timeout?: number }>;
}
export interface OwnedHook {
  event: string;
  group: HookGroup;
}

export type MergeResult =
  | { ok: true; text: string; changed: boolean }
  | { ok: false; reason: string };

type Parsed = { ok: true; root: JsonObjectNode } | { ok: false; reason: string };

function parseRoot(text: string, file: string): Parsed {
  const located = locateJson(text);
  if (!located.ok)
    return {
      ok: false,
      reason: `${file} is not valid JSON (${located.reason}); fix it by hand, nothing was changed`,
    };
  if (located.root.kind !== "object")
    return {
      ok: false,
      reason: `${file}: expected a JSON object at the top level; nothing was changed`,
    };
  const twice = repeatedKey(text, located.root);
  if (twice)
    return {
      ok: false,
      reason: `${file}: ${twice}; JSON.parse keeps only the last, so an edit could land on the one that is ignored. Fix it by hand, nothing was changed`,
    };
  return { ok: true, root: located.root };
}

/** A key written twice where quoin edits (the top level, "hooks", "statusLine"), with its line and column. */
function repeatedKey(text: string, root: JsonObjectNode): string | null {
  const hooks = propertyOf(root, "hooks")?.value;
  const statusLine = propertyOf(root, "statusLine")?.value;
  for (const [where, node] of [
    ["the top level", root],
    ['"hooks"', hooks],
    ['"statusLine"', statusLine],
  ] as const) {
    if (node?.kind !== "object") continue;
    const seen = new Set<string>();
    for (const p of node.props) {
      if (seen.has(p.key)) {
        const { line, column } = lineColumn(text, p.start);
        return `key "${p.key}" appears twice in ${where} (again at line ${line}, column ${column})`;
      }
      seen.add(p.key);
    }
  }
  return null;
}

function nodeValue(text: string, node: JsonNode): unknown {
  return JSON.parse(text.slice(node.start, node.end));
}

function isOwnedHook(h: unknown): boolean {
  const command = (h as { command?: unknown } | null)?.command;
  return typeof command === "string" && command.includes(OWNED_HOOK_MARKER);
}

/** A group holding one of quoin's handlers; a user may have added their own handlers beside it. */
function isOwnedGroup(value: unknown): boolean {
  if (!value || typeof value !== "object") return false;
  const hooks = (value as { hooks?: unknown }).hooks;
  return Array.isArray(hooks) && hooks.some(isOwnedHook);
}

/**
 * The group with quoin's handlers replaced by `ours` (where the first of them was), the user's
 * handlers and keys kept; `ours` null takes quoin's out. Null when nothing would be left.
 */
function withOurHooks(
  existing: Record<string, unknown>,
  ours: HookGroup | null,
): Record<string, unknown> | null {
  const hooks = existing["hooks"] as unknown[];
  const at = hooks.findIndex(isOwnedHook);
  const theirs = hooks.filter((h) => !isOwnedHook(h));
  const next = ours ? [...theirs.slice(0, at), ...ours.hooks, ...theirs.slice(at)] : theirs;
  if (!next.length) return null;
  const { matcher, hooks: _old, ...rest } = existing;
  const keep = ours ? ours.matcher : matcher;
  return { ...(keep !== undefined ? { matcher: keep } : {}), hooks: next, ...rest };
}

function ownedIndexes(text: string, arr: JsonArrayNode): number[] {
  return arr.items.flatMap((item, i) => (isOwnedGroup(nodeValue(text, item)) ? [i] : []));
}

/** One edit step: re-locate after every change so offsets are always fresh. */
function step(
  text: string,
  file: string,
  edit: (root: JsonObjectNode) => string | { reason: string } | null,
): { ok: true; text: string } | { ok: false; reason: string } {
  const parsed = parseRoot(text, file);
  if (!parsed.ok) return parsed;
  const out = edit(parsed.root);
  if (out === null) return { ok: true, text };
  if (typeof out === "object") return { ok: false, reason: out.reason };
  return { ok: true, text: out };
}

function hookArray(
  root: JsonObjectNode,
  event: string,
  file: string,
): { hooks?: JsonObjectNode; arr?: JsonArrayNode } | { reason: string } {
  const hooks = propertyOf(root, "hooks");
  if (!hooks) return {};
  if (hooks.value.kind !== "object")
    return { reason: `${file}: "hooks" is not an object; nothing was changed` };
  const ev = propertyOf(hooks.value, event);
  if (!ev) return { hooks: hooks.value };
  if (ev.value.kind !== "array")
    return { reason: `${file}: "hooks.${event}" is not an array; nothing was changed` };
  return { hooks: hooks.value, arr: ev.value };
}

function _statusLineCommandOf(text: string): string | undefined {
  try {
    const command = (
      JSON.parse(text.replace(/^\ufeff/, "")) as { statusLine?: { command?: unknown } }
    ).statusLine?.command;
    return typeof command === "string" ? command : undefined;
  } catch {
    return undefined;
  }
}

/** True when the settings text holds quoin's status line (ours, or ours wrapping the user's). */
export function hasOwnedStatusLine(text: string): boolean {
  const command = _statusLineCommandOf(text);
  return command !== undefined && OWNED_STATUSLINE.test(command);
}

/** True when quoin's status line is the invisible recorder (`statusline.cjs --quiet`). */
export function hasQuietStatusLine(text: string): boolean {
  const command = _statusLineCommandOf(text);
  return (
    command !== undefined &&
    OWNED_STATUSLINE.test(command) &&
    /statusline\.cjs["']? --quiet( |$)/.test(command)
  );
}

/** True when quoin's status line still runs the ES-module engine an older install wrote (`quoin-checkpoint.mjs statusline`). */
export function hasLegacyEngineStatusLine(text: string): boolean {
  const command = _statusLineCommandOf(text);
  return command !== undefined && LEGACY_ENGINE_STATUSLINE.test(command);
}

/** Our status-line command (`node ".../statusline.cjs"`), wrapping the user's own one when there is one. */
export function statusLineCommand(base: string, theirs: string | undefined): string {
  return theirs === undefined ? base : `${base} --wrap '${theirs.replace(/'/g, `'\\''`)}'`;
}

/** The user's own status-line command, recovered from our wrapper; undefined when we did not wrap one. */
export function unwrapStatusLine(command: string): string | undefined {
  const m = / --wrap '((?:[^']|'\\'')*)'$/.exec(command);
  return m?.[1]?.replace(/'\\''/g, "'");
}

export interface InstallRequest {
  hooks: readonly OwnedHook[];
  /** set: register (or wrap) the status line with this command (`node ".../statusline.cjs"`) */
  statusLine?: string;
}

/** Add or refresh quoin's entries. `text` null: the file does not exist yet. Running it twice changes nothing. */
export function mergeInstall(
  text: string | null,
  req: InstallRequest,
  file = "settings.json",
): MergeResult {
  let current = text ?? "{}\n";
  for (const { event, group } of req.hooks) {
    const res = step(current, file, (root) => {
      const found = hookArray(root, event, file);
      if ("reason" in found) return found;
      if (!found.hooks) return insertProperty(current, root, "hooks", { [event]: [group] });
      if (!found.arr) return insertProperty(current, found.hooks, event, [group]);
      const owned = ownedIndexes(current, found.arr);
      const first = owned[0];
      if (first === undefined) return appendItem(current, found.arr, group);
      const have = nodeValue(current, found.arr.items[first] as JsonNode) as Record<
        string,
        unknown
      >;
      const want = withOurHooks(have, group) as Record<string, unknown>;
      if (owned.length === 1 && isDeepStrictEqual(have, want)) return null;
      // Refresh the first of ours in place (a handler the user added to it stays), and take ours
      // out of any later group (last first, so offsets hold): a reinstall never adds a second one.
      let out = current;
      for (const i of [...owned.slice(1)].reverse()) {
        const item = found.arr.items[i] as JsonNode;
        const rest = withOurHooks(nodeValue(current, item) as Record<string, unknown>, null);
        out = rest ? replaceValue(out, item, rest) : removeItem(out, found.arr, i);
      }
      const again = parseRoot(out, file);
      if (!again.ok) return again;
      const arr = (hookArray(again.root, event, file) as { arr: JsonArrayNode }).arr;
      return replaceValue(out, arr.items[first] as JsonNode, want);
    });
    if (!res.ok) return res;
    current = res.text;
  }
  if (req.statusLine !== undefined) {
    const engine = req.statusLine;
    const res = step(current, file, (root) => {
      const sl = propertyOf(root, "statusLine");
      if (!sl)
        return insertProperty(current, root, "statusLine", {
          type: "command",
          command: statusLineCommand(engine, undefined),
          padding: 0,
        });
      if (sl.value.kind !== "object")
        return { reason: `${file}: "statusLine" is not an object; nothing was changed` };
      const cmd = propertyOf(sl.value, "command");
      const theirs = cmd ? nodeValue(current, cmd.value) : undefined;
      if (typeof theirs !== "string")
        return { reason: `${file}: "statusLine.command" is not a string; nothing was changed` };
      if (OWNED_STATUSLINE.test(theirs)) {
        const want = statusLineCommand(engine, unwrapStatusLine(theirs));
        return want === theirs
          ? null
          : replaceValue(current, (cmd as { value: JsonNode }).value, want);
      }
      return replaceValue(
        current,
        (cmd as { value: JsonNode }).value,
        statusLineCommand(engine, theirs),
      );
    });
    if (!res.ok) return res;
    current = res.text;
  }
  if (text === null) {
    // A new file: write it pretty rather than as edits on "{}".
    current = `${JSON.stringify(JSON.parse(current), null, 2)}\n`;
  }
  return { ok: true, text: current, changed: current !== text };
}

/**
 * The hook containers a file already has ("hooks", "hooks.<Event>"), recorded before the first
 * install so that uninstall keeps a `{}` or `[]` the user had rather than removing it with ours.
 */
export function existingHookContainers(text: string | null): string[] {
  if (text === null) return [];
  const parsed = parseRoot(text, "settings.json");
  const hooks = parsed.ok ? propertyOf(parsed.root, "hooks") : undefined;
  if (hooks?.value.kind !== "object") return [];
  return [
    "hooks",
    ...hooks.value.props.filter((p) => p.value.kind === "array").map((p) => `hooks.${p.key}`),
  ];
}

/**
 * Take out exactly what mergeInstall put in: our hook groups, our status line, and the containers
 * that held only ours, except those in `keep` (from existingHookContainers before the install).
 */
export function mergeUninstall(
  text: string,
  file = "settings.json",
  keep: readonly string[] = [],
): MergeResult {
  let current = text;
  for (let guard = 0; guard < 1000; guard += 1) {
    const res = step(current, file, (root) => {
      const hooks = propertyOf(root, "hooks");
      if (hooks?.value.kind === "object") {
        for (const ev of hooks.value.props) {
          if (ev.value.kind !== "array") continue;
          const owned = ownedIndexes(current, ev.value);
          const last = owned[owned.length - 1];
          if (last === undefined) continue;
          // A group where the user added a handler beside ours: only ours comes out.
          const rest = withOurHooks(
            nodeValue(current, ev.value.items[last] as JsonNode) as Record<string, unknown>,
            null,
          );
          if (rest) return replaceValue(current, ev.value.items[last] as JsonNode, rest);
          if (ev.value.items.length === 1 && !keep.includes(`hooks.${ev.key}`)) {
            return hooks.value.props.length === 1 && !keep.includes("hooks")
              ? removeProperty(current, root, "hooks")
              : removeProperty(current, hooks.value, ev.key);
          }
          return removeItem(current, ev.value, last);
        }
      }
      const sl = propertyOf(root, "statusLine");
      const cmd = sl?.value.kind === "object" ? propertyOf(sl.value, "command") : undefined;
      const value = cmd ? nodeValue(current, cmd.value) : undefined;
      if (typeof value === "string" && OWNED_STATUSLINE.test(value)) {
        const theirs = unwrapStatusLine(value);
        return theirs === undefined
          ? removeProperty(current, root, "statusLine")
          : replaceValue(current, (cmd as { value: JsonNode }).value, theirs);
      }
      return null;
    });
    if (!res.ok) return res;
    if (res.text === current) return { ok: true, text: current, changed: current !== text };
    current = res.text;
  }
  return { ok: false, reason: `${file}: uninstall did not converge; nothing was changed` };
}

/** Parse loosely for read-only checks (doctor): the owned hook commands per event. */
export function ownedHookCommands(text: string): Record<string, string[]> | { reason: string } {
  const parsed = parseRoot(text, "settings.json");
  if (!parsed.ok) return { reason: parsed.reason };
  const out: Record<string, string[]> = {};
  const hooks = propertyOf(parsed.root, "hooks");
  if (hooks?.value.kind !== "object") return out;
  for (const ev of hooks.value.props) {
    if (ev.value.kind !== "array") continue;
    for (const item of ev.value.items) {
      const v = nodeValue(text, item);
      if (!isOwnedGroup(v)) continue;
      out[ev.key] ??= [];
      out[ev.key]!.push(...(v as HookGroup).hooks.filter(isOwnedHook).map((h) => h.command));
    }
  }
  return out;
}

/** Parse loosely for read-only checks (doctor): each owned group's matcher per event (undefined: none). */
export function ownedHookMatchers(text: string): Record<string, Array<string | undefined>> {
  const parsed = parseRoot(text, "settings.json");
  const out: Record<string, Array<string | undefined>> = {};
  const hooks = parsed.ok ? propertyOf(parsed.root, "hooks") : undefined;
  if (hooks?.value.kind !== "object") return out;
  for (const ev of hooks.value.props) {
    if (ev.value.kind !== "array") continue;
    for (const item of ev.value.items) {
      const v = nodeValue(text, item);
      if (!isOwnedGroup(v)) continue;
      const m = (v as { matcher?: unknown }).matcher;
      out[ev.key] ??= [];
      out[ev.key]!.push(typeof m === "string" ? m : undefined);
    }
  }
  return out;
}
