import type { FsApi } from "../core/deps.ts";
import { scanLinesBackwards, withOpenFile } from "../core/file-range.ts";

// The summary Claude Code wrote at the newest compaction (the re-entry note carries only what it
// dropped of the checkpoint). The transcript holds
// `{"type":"system","subtype":"compact_boundary",...}` followed by a `user` line with
// `isCompactSummary: true` whose message is the summary. SessionStart(compact) fires right after
// it, so the pair is at the end: read backwards, stop at the newest boundary, never the whole file.

/** Bytes read back from the end at most (a summary line is some tens of KB). */
const SUMMARY_SCAN_BYTES = 8 * 1024 * 1024;

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b) => (b && typeof b === "object" && typeof b.text === "string" ? b.text : ""))
    .join("\n");
}

export interface CompactSummary {
  text: string;
  /** the boundary line's timestamp (ISO), null when it has none */
  at: string | null;
}

/**
 * The text of the isCompactSummary line after the newest compact_boundary, with that boundary's
 * time; null when the tail holds no boundary with a summary after it, or the file cannot be read.
 */
export function readCompactSummary(
  fs: FsApi,
  file: string,
  maxScanBytes = SUMMARY_SCAN_BYTES,
): CompactSummary | null {
  return withOpenFile(fs, file, (fd, size) => {
    let summary: string | null = null;
    let boundary = false;
    let at: string | null = null;
    scanLinesBackwards(
      fs,
      fd,
      size,
      { initialChunk: 64 * 1024, growth: 2, maxChunk: 4 * 1024 * 1024, maxScan: maxScanBytes },
      (line) => {
        const isSummary = line.includes("isCompactSummary");
        if (!isSummary && !line.includes("compact_boundary")) return false;
        let e: Record<string, unknown>;
        try {
          e = JSON.parse(line.toString("utf8")) as Record<string, unknown>;
        } catch {
          return false;
        }
        if (e["type"] === "system" && e["subtype"] === "compact_boundary") {
          boundary = true;
          at = typeof e["timestamp"] === "string" ? e["timestamp"] : null;
          return true;
        }
        // Going backwards, the last one seen is the first after the boundary.
        if (e["isCompactSummary"] === true)
          summary = textOf((e["message"] as { content?: unknown } | undefined)?.content);
        return false;
      },
    );
    return boundary && summary ? { text: summary, at } : null;
  });
}
