import * as fs from "node:fs";
import type { FsApi } from "../lib/core/deps.ts";
import { readTranscriptDigest } from "../lib/context/transcript-digest-read.ts";

// What the digest bench runs in a child process: one readTranscriptDigest over argv[2], with the
// project root argv[3]; prints the counts so a run can be checked by eye.
const [file, root] = process.argv.slice(2);
const d = readTranscriptDigest(fs as unknown as FsApi, file ?? "", { projectRoot: root ?? "/" });
console.log(
  JSON.stringify(
    d && {
      requests: d.requestCount,
      changed: d.changed.length,
      read: d.read.length,
      todos: d.todos?.length ?? null,
      failures: d.failures.length,
      truncated: d.truncated,
    },
  ),
);
