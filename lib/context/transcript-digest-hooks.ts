import { isRecord as isObj } from "../core/value-checks.ts";
import { str, type Line } from "./transcript-digest-line.ts";

// What the session's own PostToolUse hooks told the model after a tool call. A project's hook that
// compiles or lints each edited file (exit 2 with the errors on stderr, or additionalContext) is
// often the only check an edit gets before a compaction. Claude Code 2.1.197 and later write that
// feedback into the transcript as `attachment` lines tied to the call (`hook_blocking_error`,
// `hook_additional_context`, both seen here with the pinned clients); 2.1.39 wrote only a
// `hook_progress` line saying the hook ran, never what it said. So a checkpoint can carry the
// feedback on a current client, and on an older one can say only that hooks ran.

/** One piece of feedback a PostToolUse hook gave the model. */
export interface HookNote {
  /** the hook's command, as its last path part (`post-edit-check.js`, `check.sh`) */
  hook: string;
  text: string;
  /** an exit-2 error (the hook objected), or context it added */
  kind: "error" | "context";
}

/** A command line's name for a person: its last path-like word (`bun run ./dist/check.js` -> `check.js`). */
export function hookName(command: string): string {
  const words = command.trim().split(/\s+/);
  const named =
    [...words].reverse().find((w) => /[/.]/.test(w) && !/^[-$]/.test(w)) ?? words[0] ?? "";
  return named.replace(/["']/g, "").split("/").pop() ?? named;
}

/** `[<command>]: text`, as the client prefixes a blocking error: the text alone. */
function withoutCommandPrefix(text: string, command: string): string {
  const prefix = `[${command}]: `;
  return text.startsWith(prefix) ? text.slice(prefix.length) : text;
}

export class HookLog {
  private readonly notes = new Map<string, HookNote[]>();
  private readonly ran = new Map<string, string[]>();
  /** whether the transcript records hook outcomes at all (a current client's attachment lines) */
  recordsOutcomes = false;

  /** An `attachment` line: a PostToolUse hook's blocking error or added context for a call. */
  attachment(e: Line): void {
    const a = e["attachment"];
    if (!isObj(a)) return;
    const type = str(a["type"]);
    if (type === null || !type.startsWith("hook_")) return;
    this.recordsOutcomes = true;
    const id = str(a["toolUseID"]);
    if (id === null || a["hookEvent"] !== "PostToolUse") return;
    if (type === "hook_blocking_error") {
      const b = isObj(a["blockingError"]) ? a["blockingError"] : {};
      const command = str(b["command"]) ?? "";
      const text = str(b["blockingError"]);
      if (text?.trim())
        this.add(id, {
          hook: hookName(command),
          text: withoutCommandPrefix(text, command),
          kind: "error",
        });
    } else if (type === "hook_additional_context") {
      const content = a["content"];
      const texts = Array.isArray(content) ? content.map(str) : [str(content)];
      const text = texts.filter((t) => t !== null && t.trim() !== "").join("\n");
      if (text) this.add(id, { hook: "", text, kind: "context" });
    }
  }

  /** A `progress` line: an older client's record that a PostToolUse hook ran for a call. */
  progress(e: Line): void {
    const d = e["data"];
    if (!isObj(d) || d["type"] !== "hook_progress" || d["hookEvent"] !== "PostToolUse") return;
    const id = str(e["toolUseID"]) ?? str(e["parentToolUseID"]);
    const command = str(d["command"]);
    // "callback" is the client's own internal hook, not the project's
    if (id === null || command === null || command === "callback") return;
    const names = this.ran.get(id) ?? [];
    const name = hookName(command);
    if (name && !names.includes(name)) names.push(name);
    this.ran.set(id, names);
  }

  private add(id: string, note: HookNote): void {
    const list = this.notes.get(id) ?? [];
    list.push(note);
    this.notes.set(id, list);
  }

  notesOf(callId: string): readonly HookNote[] {
    return this.notes.get(callId) ?? [];
  }

  /** The PostToolUse hooks an older client recorded running after a call (no word of their output). */
  ranAfter(callId: string): readonly string[] {
    return this.ran.get(callId) ?? [];
  }
}
