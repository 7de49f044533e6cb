import { propertyOf } from "../core/json-locate.ts";
import { nodeValue, parseRoot } from "./settings-json.ts";
import { isOwnedGroup, isOwnedHook, type HookGroup } from "./settings-merge.ts";

// Read-only looks at quoin's hook entries in a settings.json, for doctor and for finding the
// installs present: parsed loosely, nothing is edited.

/** Each of quoin's hook groups in a parsed settings.json, with its event. */
function* ownedGroups(text: string, root: Parameters<typeof propertyOf>[0]) {
  const hooks = propertyOf(root, "hooks");
  if (hooks?.value.kind !== "object") return;
  for (const ev of hooks.value.props) {
    if (ev.value.kind !== "array") continue;
    for (const item of ev.value.items) {
      const v = nodeValue(text, item);
      if (isOwnedGroup(v)) yield { event: ev.key, group: v as HookGroup };
    }
  }
}

/** Parse loosely for read-only checks (doctor): the owned hook commands per event. */
export function ownedHookCommands(text: string): Record<string, string[]> | { reason: string } {
  const parsed = parseRoot(text, "settings.json");
  if (!parsed.ok) return { reason: parsed.reason };
  const out: Record<string, string[]> = {};
  for (const { event, group } of ownedGroups(text, parsed.root)) {
    out[event] ??= [];
    out[event]!.push(...group.hooks.filter(isOwnedHook).map((h) => h.command));
  }
  return out;
}

/** Parse loosely for read-only checks (doctor): each owned group's matcher per event (undefined: none). */
export function ownedHookMatchers(text: string): Record<string, Array<string | undefined>> {
  const parsed = parseRoot(text, "settings.json");
  const out: Record<string, Array<string | undefined>> = {};
  if (!parsed.ok) return out;
  for (const { event, group } of ownedGroups(text, parsed.root)) {
    const m = (group as { matcher?: unknown }).matcher;
    out[event] ??= [];
    out[event]!.push(typeof m === "string" ? m : undefined);
  }
  return out;
}
