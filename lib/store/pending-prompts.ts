/** pending-prompt-<sid>.txt: prompts the block tier saved, oldest first. */
export interface BlockedPrompt {
  /** ISO time, or "legacy" for text from before the header format */
  timestamp: string;
  nonReplayable: boolean;
  /** e.g. "task-notification" */
  nonReplayableKind?: string;
  text: string;
}

const HEADER = /^=== BLOCKED PROMPT \[([^\]]*)\](.*)===\s*$/;

/** The turn Claude Code injects when a background task ends (both 2.1.197 and 2.1.332). */
export function isTaskNotification(prompt: string): boolean {
  return prompt.trimStart().startsWith("<task-notification>");
}

function blockedPromptHeader(iso: string, prompt: string): string {
  const tag = isTaskNotification(prompt) ? " [non-replayable:task-notification]" : "";
  return `=== BLOCKED PROMPT [${iso}]${tag} ===`;
}

/** True when the file is in the multi-entry format (at least one header line). */
export function hasHeader(text: string): boolean {
  return text.split("\n").some((l) => HEADER.test(l.replace(/\r$/, "")));
}

// A prompt line that reads as a header, after any number of spaces, is shifted by one more space
// so entries stay apart; the parser takes exactly one back. NOTE: the prompt is trimmed first: a
// trim after the shift would undo it on the first line and let a prompt forge its own header.
const SHIFTED = /^ *=== BLOCKED PROMPT \[/;
function escapePrompt(prompt: string): string {
  return prompt
    .replace(/\r\n/g, "\n")
    .trim()
    .split("\n")
    .map((l) => (SHIFTED.test(l) ? ` ${l}` : l))
    .join("\n");
}

/**
 * The file's new content after one more blocked prompt. A legacy headerless file becomes the
 * first entry, tagged `legacy`, so nothing it held is lost.
 */
export function appendBlockedPrompt(existing: string | null, prompt: string, iso: string): string {
  let base = existing ?? "";
  if (base.trim() !== "" && !hasHeader(base))
    base = `=== BLOCKED PROMPT [legacy] ===\n${base.trim()}\n`;
  if (base !== "" && !base.endsWith("\n")) base += "\n";
  if (base !== "") base += "\n";
  return `${base}${blockedPromptHeader(iso, prompt)}\n${escapePrompt(prompt)}\n`;
}

/** Every entry; text before the first header (a legacy file) is one implicit entry. */
export function parseBlockedPrompts(text: string): BlockedPrompt[] {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const entries: BlockedPrompt[] = [];
  let current: { header: BlockedPrompt; lines: string[] } | null = null;
  const preamble: string[] = [];
  const flush = () => {
    if (current) entries.push({ ...current.header, text: current.lines.join("\n").trim() });
  };
  for (const line of lines) {
    const m = HEADER.exec(line);
    if (m) {
      flush();
      const tag = /\[non-replayable:([^\]]*)\]/.exec(m[2] ?? "");
      current = {
        header: {
          timestamp: m[1] ?? "",
          nonReplayable: Boolean(tag),
          nonReplayableKind: tag?.[1],
          text: "",
        },
        lines: [],
      };
    } else if (current) {
      current.lines.push(line.startsWith(" ") && SHIFTED.test(line) ? line.slice(1) : line);
    } else {
      preamble.push(line);
    }
  }
  flush();
  const pre = preamble.join("\n").trim();
  if (pre !== "") entries.unshift({ timestamp: "legacy", nonReplayable: false, text: pre });
  return entries;
}
