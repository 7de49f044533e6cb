import { runCached } from "../lib/edge/code-cache.ts";

// The prompt hook's file (scripts/build.ts): this loader, and the hook's bundle and its cold part as
// two strings the build puts before it.
declare const __quoinMain: string;
declare const __quoinColdSource: string;
declare const __quoinMainHash: string;

runCached({
  source: __quoinMain,
  cold: __quoinColdSource,
  filename: __filename,
  build: __quoinMainHash,
  env: process.env,
});
