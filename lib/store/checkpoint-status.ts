// The kind of a checkpoint, as data: who wrote it and why. A checkpoint records it as its status
// line (the seed's texts, unchanged); statusText writes that line and kindOf reads it back, the
// only place that decodes it.

export type CheckpointKind =
  /** the model's own document through /checkpoint; `reference`: load-as-reference mode */
  | { kind: "voluntary"; reference: boolean }
  /** the panic tier of /checkpoint: context too full for a full save */
  | { kind: "panic" }
  /** the prompt hook's save when context reached the block tier */
  | { kind: "forced" }
  | { kind: "precompact"; trigger: string }
  | { kind: "session-end"; reason: string }
  /** a status this tool does not write (older or hand-made files), kept as written */
  | { kind: "other"; status: string };

const SAVE = "checkpoint save (";
const FORCED = "forced: context at the block tier";

export function statusText(k: CheckpointKind): string {
  switch (k.kind) {
    case "voluntary":
      return `${SAVE}voluntary${k.reference ? ", load-as-reference" : ""})`;
    case "panic":
      return `${SAVE}panic mode)`;
    case "forced":
      return `${SAVE}${FORCED})`;
    case "precompact":
      return `${SAVE}precompact, ${k.trigger} trigger)`;
    case "session-end":
      return `${SAVE}session end, ${k.reason})`;
    case "other":
      return k.status;
  }
}

/** The kind a status line records; a line this tool did not write is "other". */
export function kindOf(status: string | undefined): CheckpointKind {
  const s = status ?? "";
  const inner = s.startsWith(SAVE) && s.endsWith(")") ? s.slice(SAVE.length, -1) : null;
  if (s.startsWith(`${SAVE}voluntary`))
    return { kind: "voluntary", reference: s.includes("load-as-reference") };
  if (inner === "panic mode") return { kind: "panic" };
  if (inner === FORCED) return { kind: "forced" };
  if (s.startsWith(`${SAVE}precompact, `)) {
    const rest = s.slice(`${SAVE}precompact, `.length);
    return { kind: "precompact", trigger: /^(.*) trigger\)$/.exec(rest)?.[1] ?? rest };
  }
  if (inner?.startsWith("session end, "))
    return { kind: "session-end", reason: inner.slice("session end, ".length) };
  return { kind: "other", status: s };
}
