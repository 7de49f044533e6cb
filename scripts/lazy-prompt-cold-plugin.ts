import type { Plugin } from "esbuild";
import * as path from "node:path";

/**
 * In the prompt hook's bundle, lib/hooks/prompt-cold.ts (the block tier, the re-entry after a
 * compaction) is lib/edge/lazy-prompt-cold.ts, which compiles the cold part from source text on
 * its first call (scripts/build.ts buildCachedHook). Only user-prompt-submit.ts's import moves.
 */
export function lazyPromptColdPlugin(root: string): Plugin {
  return {
    name: "lazy-prompt-cold",
    setup(b) {
      b.onResolve({ filter: /\/prompt-cold\.ts$/ }, (args) =>
        args.importer.endsWith(path.join("lib", "hooks", "user-prompt-submit.ts"))
          ? { path: path.join(root, "lib", "edge", "lazy-prompt-cold.ts") }
          : undefined,
      );
    },
  };
}
