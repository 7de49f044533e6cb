/** `## Title` sections of a checkpoint or session-state file. CRs are stripped; bodies keep their lines. */
export interface Section {
  title: string;
  body: string;
}

const HEADING = /^##\s+(.+?)\s*$/;

export function parseSections(text: string): Section[] {
  const sections: Section[] = [];
  let current: { title: string; lines: string[] } | null = null;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\r$/, "");
    const heading = HEADING.exec(line);
    if (heading && !line.startsWith("###")) {
      if (current) sections.push({ title: current.title, body: trimBlankLines(current.lines) });
      current = { title: heading[1] ?? "", lines: [] };
    } else if (current) {
      current.lines.push(line);
    }
  }
  if (current) sections.push({ title: current.title, body: trimBlankLines(current.lines) });
  return sections;
}

function trimBlankLines(lines: string[]): string {
  let start = 0;
  let end = lines.length;
  while (start < end && (lines[start] ?? "").trim() === "") start += 1;
  while (end > start && (lines[end - 1] ?? "").trim() === "") end -= 1;
  return lines.slice(start, end).join("\n");
}

/** The body of the first section whose title matches (case-insensitive, trailing colon ignored). */
export function sectionBody(sections: readonly Section[], title: string): string | undefined {
  const want = normalizeTitle(title);
  return sections.find((s) => normalizeTitle(s.title) === want)?.body;
}

function normalizeTitle(title: string): string {
  return title.trim().replace(/:$/, "").toLowerCase();
}

/** The first line of a section's body, as the seed's awk reads the task (CR stripped). */
export function firstLineOf(body: string | undefined): string | undefined {
  if (body === undefined) return undefined;
  const line = body.split("\n")[0]?.trim();
  return line ? line : undefined;
}

/**
 * A path or a branch name on one line, stored exactly: every character is kept (non-ASCII too);
 * only a backslash and control characters are escaped (`\\`, `\n`, `\r`, `\t`, `\xNN`), so a
 * name cannot break the line or start a heading. readExactLine is its inverse.
 */
export function exactLine(value: string): string {
  const escaped = value.replace(/[\\\x00-\x1f\x7f]/g, (c) => {
    if (c === "\\") return "\\\\";
    if (c === "\n") return "\\n";
    if (c === "\r") return "\\r";
    if (c === "\t") return "\\t";
    return `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`;
  });
  // A line that starts with `#` could pass for a heading: its first `#` is written as \x23.
  return escaped.startsWith("#") ? `\\x23${escaped.slice(1)}` : escaped;
}

export function readExactLine(line: string): string {
  return line.replace(/\\(\\|n|r|t|x[0-9a-fA-F]{2})/g, (_m, e: string) =>
    e === "\\"
      ? "\\"
      : e === "n"
        ? "\n"
        : e === "r"
          ? "\r"
          : e === "t"
            ? "\t"
            : String.fromCharCode(parseInt(e.slice(1), 16)),
  );
}

/** Text that goes into a section: ASCII only (renderSections escapes what could pass for a heading). */
export function sanitizeBody(text: string): string {
  return text
    .replace(/\r/g, "")
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/[\u2013\u2014]/g, "-")
    .replace(/\u2026/g, "...")
    .replace(/[^\x09\x0A\x20-\x7E]/g, "?")
    .trim();
}

// A body line CommonMark could read as a heading, or as the start of a block that hides the
// headings after it: an ATX heading (`## x`, up to three spaces in, or inside a list item or a
// quote), a setext underline (`---`, `===` under a line of text), a code fence, an HTML block that
// runs to its own end marker. Such a line gets one backslash before that start (CommonMark then
// prints the character itself); a line that already has backslashes there gets one more, so
// unescaping is exact.
const CONTAINER = String.raw`(?:[ \t]*(?:[-*+>]|\d{1,9}[.)])(?=[ \t]))*[ \t]*`;
const BLOCK = String.raw`(?:#{1,6}(?:[ \t]|$)|\x60{3}|~{3}|<(?:script|pre|style|textarea)(?:[ \t>]|$)|<!--|<\?|<![A-Za-z]|<!\[CDATA\[)`;
const UNDERLINE = String.raw`(?:=+|-+)[ \t]*$`;
const starts = (opener: string, bs: string) => new RegExp(`^(${CONTAINER})${bs}(?=${opener})`, "i");
const ESCAPE = { block: starts(BLOCK, "(\\\\*)"), underline: starts(UNDERLINE, "(\\\\*)") };
const UNESCAPE = {
  block: starts(BLOCK, "\\\\(\\\\*)"),
  underline: starts(UNDERLINE, "\\\\(\\\\*)"),
};

function mapLines(body: string, re: { block: RegExp; underline: RegExp }, to: string): string {
  const lines = body.split("\n");
  return lines
    .map((line, i) => {
      // An underline makes a heading only of the line of text above it.
      const after = i > 0 && (lines[i - 1] ?? "").trim() !== "";
      const m = re.block.exec(line) ?? (after ? re.underline.exec(line) : null);
      return m ? `${m[1]}${to}${m[2]}${line.slice(m[0].length)}` : line;
    })
    .join("\n");
}

/** A body made safe to write under a heading (see above); unescapeBody is its inverse. */
export const escapeBody = (body: string): string => mapLines(body, ESCAPE, "\\");
export const unescapeBody = (body: string): string =>
  body.includes("\\") ? mapLines(body, UNESCAPE, "") : body;

/** Blank lines around a body go; the first line keeps its indent (an indented `#` line stays no heading). */
function bodyText(body: string): string {
  return body.replace(/^(?:[ \t]*\n)+/, "").trimEnd();
}

/** Sections as text: `## Title`, the body escaped (escapeBody), a blank line between. */
export function renderSections(sections: readonly Section[]): string {
  return sections
    .map((s) => {
      const body = bodyText(s.body);
      return `## ${s.title}\n${body === "" ? "(none)" : escapeBody(body)}\n`;
    })
    .join("\n");
}
