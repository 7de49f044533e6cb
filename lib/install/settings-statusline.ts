import { propertyOf, type JsonNode, type JsonObjectNode } from "../core/json-locate.ts";
import { insertProperty, removeProperty, replaceValue } from "../core/json-text-edit.ts";
import { nodeValue } from "./settings-json.ts";

// quoin's status line in settings.json: put in (wrapping the person's own command, which it keeps
// in a `--wrap '...'` argument), recognised, and taken out again, the person's command put back.

/** The status line installs before statusline.cjs wrote: the ES-module engine's subcommand (LEGACY_ENGINE_BUNDLE). */
const LEGACY_ENGINE_STATUSLINE = /quoin-checkpoint\.mjs["']? statusline( |$)/;
/** quoin's status line: the bundle (statusline.cjs; .mjs before), or the engine's subcommand older installs wrote. */
const OWNED_STATUSLINE = new RegExp(
  `quoin-checkpoint\\/statusline\\.[mc]js["']?( |$)|${LEGACY_ENGINE_STATUSLINE.source}`,
);

function statusLineCommandOf(text: string): string | undefined {
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
  const command = statusLineCommandOf(text);
  return command !== undefined && OWNED_STATUSLINE.test(command);
}

/** True when quoin's status line is the invisible recorder (`statusline.cjs --quiet`). */
export function hasQuietStatusLine(text: string): boolean {
  const command = statusLineCommandOf(text);
  return (
    command !== undefined &&
    OWNED_STATUSLINE.test(command) &&
    /statusline\.cjs["']? --quiet( |$)/.test(command)
  );
}

/** True when quoin's status line still runs the ES-module engine an older install wrote (`quoin-checkpoint.mjs statusline`). */
export function hasLegacyEngineStatusLine(text: string): boolean {
  const command = statusLineCommandOf(text);
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

/** Put our status line in with command `engine`, wrapping the person's own; null when it is there as wanted. */
export function setStatusLine(
  current: string,
  root: JsonObjectNode,
  engine: string,
  file: string,
): string | { reason: string } | null {
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
    return want === theirs ? null : replaceValue(current, (cmd as { value: JsonNode }).value, want);
  }
  return replaceValue(
    current,
    (cmd as { value: JsonNode }).value,
    statusLineCommand(engine, theirs),
  );
}

/**
 * Take our status line out: the person's own command back where we wrapped one, else the whole
 * `statusLine` we inserted. Null when there is none of ours.
 */
export function removeStatusLine(current: string, root: JsonObjectNode): string | null {
  const sl = propertyOf(root, "statusLine");
  const cmd = sl?.value.kind === "object" ? propertyOf(sl.value, "command") : undefined;
  const value = cmd ? nodeValue(current, cmd.value) : undefined;
  if (typeof value !== "string" || !OWNED_STATUSLINE.test(value)) return null;
  const theirs = unwrapStatusLine(value);
  return theirs === undefined
    ? removeProperty(current, root, "statusLine")
    : replaceValue(current, (cmd as { value: JsonNode }).value, theirs);
}
