import { isDeepStrictEqual } from "node:util";
import {
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
import { nodeValue, parseRoot, step, type MergeResult } from "./settings-json.ts";
import { removeStatusLine, setStatusLine } from "./settings-statusline.ts";

export type { MergeResult } from "./settings-json.ts";

// Merge quoin's hook entries (and its status line: settings-statusline.ts) into a Claude Code
// settings.json, and take them out again. Pure text in, text out: every key and hook quoin does not own keeps
// its bytes; a malformed file is refused with its line and column.

/** Every hook command quoin writes contains this; nothing else is ever touched. */
const OWNED_HOOK_MARKER = "quoin-checkpoint/hooks/";
export interface HookGroup {
  matcher?: string;
  hooks: Array<{ type: "command"; command: string; timeout?: number }>;
}
export interface OwnedHook {
  event: string;
  group: HookGroup;
}

export function isOwnedHook(h: unknown): boolean {
  const command = (h as { command?: unknown } | null)?.command;
  return typeof command === "string" && command.includes(OWNED_HOOK_MARKER);
}

/** A group holding one of quoin's handlers; a user may have added their own handlers beside it. */
export function isOwnedGroup(value: unknown): boolean {
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

export interface InstallRequest {
  hooks: readonly OwnedHook[];
  /**
   * set: register (or wrap) the status line with this command (`node ".../statusline.cjs"`); null:
   * take ours out, the person's own command back (--no-statusline); undefined: leave it as it is
   */
  statusLine?: string | null;
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
    const res = step(current, file, (root) =>
      engine === null
        ? removeStatusLine(current, root)
        : setStatusLine(current, root, engine, file),
    );
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
      return removeStatusLine(current, root);
    });
    if (!res.ok) return res;
    if (res.text === current) return { ok: true, text: current, changed: current !== text };
    current = res.text;
  }
  return { ok: false, reason: `${file}: uninstall did not converge; nothing was changed` };
}
