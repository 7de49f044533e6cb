import type { CheckpointRequest } from "../store/checkpoint-digest.ts";
import { cutWords } from "../core/text-cut.ts";
import { TEXT_LIMITS } from "../core/text-limits.ts";
import { lineText, type Line } from "./transcript-digest-line.ts";

// What the person asked for, in order: typed user lines and queued prompts, without what the client
// generated itself (hook output, local commands, injected turns, its own slash commands).

export interface DigestRequest extends CheckpointRequest {
  uuid: string | null;
}

/**
 * Built-in commands that act on the client, not on the work (`/mcp`, `/clear`...): not requests.
 * Any other slash command (a skill, a custom command, `/init`, `/review`) is what the person asked
 * for, kept as `/name args`.
 */
const CLIENT_COMMANDS = new Set(
  "add-dir agents bashes clear compact config context cost doctor exit export help hooks ide login logout mcp memory model permissions plugin plugins quit release-notes resume rewind status statusline terminal-setup theme upgrade usage vim".split(
    " ",
  ),
);
/** Wrappers Claude Code writes around what it generated itself (hook output, local commands, notifications). */
const WRAPPER =
  /^<(system-reminder|local-command-[a-z]+|task-notification|bash-(input|stdout|stderr)|user-prompt-submit-hook|command-stdout|command-stderr)\b/;

/** `<command-name>/x</command-name>...<command-args>y</command-args>` as `/x y`, or null when not a command line. */
function slashCommand(text: string): string | null {
  const name = /<command-name>\s*([^<]*?)\s*<\/command-name>/.exec(text)?.[1];
  if (name === undefined) return null;
  const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1] ?? "";
  const slashed = name.startsWith("/") ? name : `/${name}`;
  return `${slashed} ${args}`.trim();
}

/** What the person typed, or null when the text is generated, a wrapper, a client command or an interruption marker. */
export function typedText(raw: string): string | null {
  let text = raw.trim();
  if (text === "" || text.startsWith("[Request interrupted")) return null;
  if (text.includes("<command-name>")) text = slashCommand(text) ?? "";
  else if (WRAPPER.test(text) || text.startsWith("<command-")) return null;
  text = text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "").trim();
  if (text === "") return null;
  if (text.startsWith("/")) {
    const name = /^\/([A-Za-z0-9_:-]+)/.exec(text)?.[1];
    if (name !== undefined && CLIENT_COMMANDS.has(name.toLowerCase())) return null;
  }
  return text;
}

/**
 * A user line the client injected, not the person: NOTE: 2.1.332 marks a /loop or scheduled-task
 * fire with `wakeupSource` (loop_wakeup, schedule_wakeup) and other machine turns (peer messages,
 * task notifications, auto-continuation) with `promptSource: "system"`; typed lines carry
 * `promptSource` typed, queued, suggestion_accepted or sdk. Older clients write neither key.
 */
export function isInjectedUserLine(e: Line): boolean {
  return typeof e["wakeupSource"] === "string" || e["promptSource"] === "system";
}

/** The typed text of a main-chain user line, or null (tool results, meta, compaction summaries, injected turns). */
export function userLineText(e: Line): string | null {
  if (
    isInjectedUserLine(e) ||
    e["isMeta"] === true ||
    e["isCompactSummary"] === true ||
    e["isVisibleInTranscriptOnly"] === true
  )
    return null;
  if (e["toolUseResult"] !== undefined) return null;
  const text = lineText(e);
  return text === null ? null : typedText(text);
}

const matchKey = (text: string): string => text.replace(/\s+/g, " ").trim();

interface RequestSlot extends DigestRequest {
  key: string;
  /** came from a queue-operation enqueue not yet seen again as a user line */
  queued: boolean;
}

/**
 * Requests in order. A prompt typed while the model was busy is an `enqueue` line; when it is later
 * also written as a user line (dequeued into a new turn), that line is the same request, not a second
 * one. `popAll` hands queued prompts back to the input box: they count only if sent again.
 */
export class RequestLog {
  readonly all: RequestSlot[] = [];

  typed(text: string, at: string | null, uuid: string | null): void {
    const key = matchKey(text);
    const queued = this.all.findIndex((r) => r.queued && r.key === key);
    if (queued >= 0) {
      const slot = this.all[queued]!;
      slot.queued = false;
      slot.uuid = uuid;
      return;
    }
    this.all.push({
      text: cutWords(text, TEXT_LIMITS.digest.requestChars),
      at,
      uuid,
      key,
      queued: false,
    });
  }

  enqueued(text: string, at: string | null): void {
    this.all.push({
      text: cutWords(text, TEXT_LIMITS.digest.requestChars),
      at,
      uuid: null,
      key: matchKey(text),
      queued: true,
    });
  }

  /**
   * NOTE: 2.1.332 first enqueues an injected turn (a /loop wakeup) like a typed prompt, then
   * writes it as an injected user line: the queued slot it matches was never the person's.
   */
  injected(text: string): void {
    const key = matchKey(typedText(text) ?? text);
    const queued = this.all.findIndex((r) => r.queued && r.key === key);
    if (queued >= 0) this.all.splice(queued, 1);
  }

  poppedAll(): void {
    for (let i = this.all.length - 1; i >= 0; i--) if (this.all[i]!.queued) this.all.splice(i, 1);
  }
}

/** A request as the digest keeps it (the log's matching key and queue flag dropped). */
export const plain = (r: DigestRequest): DigestRequest => ({
  text: r.text,
  at: r.at,
  uuid: r.uuid,
});
