import { lastUserText, requestText, type MessagesBody, type Responder, type ScriptedReply } from "./loopback-model.ts";

// Helpers for e2e tests that drive an installed quoin skill with a scripted model: find what a
// model would read in the skill text, and answer with a fixed list of Bash commands.

/** Marks a request that carries a rendered quoin skill (the preamble's pidfile section). */
export const SKILL_MARKER = "## 0c. Pidfile lifecycle";

/** The engine command and session id, as a model would copy them from the rendered skill text. */
export function engineFrom(text: string): { engine: string; session: string } {
  const engine = /`E` below stands for `(node "[^"]+")`/.exec(text)?.[1];
  const session = /--session ([0-9a-f-]{36})/.exec(text)?.[1];
  if (!engine || !session) throw new Error("the skill text did not reach the model");
  return { engine, session };
}

/** How many tool calls the conversation holds so far (the script's position). */
export function toolCallsSoFar(body: MessagesBody): number {
  return (body.messages ?? []).filter((m) => m.role === "assistant" && JSON.stringify(m.content).includes('"tool_use"')).length;
}

/**
 * A responder that runs `commands(engine, session)` one Bash call at a time, then answers
 * `RELAY <last tool result>`. Requests without a quoin skill get "ok".
 */
export function scriptedCommands(commands: (engine: string, session: string) => string[]): Responder {
  return (body): ScriptedReply => {
    const all = requestText(body);
    if (!all.includes(SKILL_MARKER)) return { kind: "text", text: "ok" };
    const { engine, session } = engineFrom(all);
    const next = commands(engine, session)[toolCallsSoFar(body)];
    if (next) return { kind: "tool_use", name: "Bash", input: { command: next } };
    return { kind: "text", text: `RELAY ${lastUserText(body).slice(0, 2000)}` };
  };
}
