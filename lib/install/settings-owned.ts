import { propertyOf } from "../core/json-locate.ts";
import { nodeValue, parseRoot } from "./settings-json.ts";
import { isOwnedGroup, isOwnedHook, type HookGroup } from "./settings-merge.ts";

// Read-only looks at quoin's hook entries in a settings.json, for doctor and for finding the
// installs present: parsed loosely, nothing is edited.

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
