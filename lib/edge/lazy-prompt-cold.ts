import type * as Cold from "../hooks/prompt-cold.ts";

// What lib/hooks/prompt-cold.ts is inside the prompt hook's bundle (scripts/build.ts resolves it
// here): the block tier and the re-entry after a compaction run on few prompts, so their code sits
// in the bundle as source text (__quoinCold, given by lib/edge/code-cache.ts) and is compiled on
// the first call. tsx and the tests import the real module.

declare const __quoinCold: (() => typeof Cold) | undefined;

let cold: typeof Cold | undefined;

function load(): typeof Cold {
  if (!cold) {
    if (typeof __quoinCold !== "function")
      throw new Error("the prompt hook's cold part is missing from this bundle");
    cold = __quoinCold();
  }
  return cold;
}

export const holdPrompt: typeof Cold.holdPrompt = (...args) => load().holdPrompt(...args);
export const reentryAtPrompt: typeof Cold.reentryAtPrompt = (...args) =>
  load().reentryAtPrompt(...args);
export const failedText: typeof Cold.failedText = (...args) => load().failedText(...args);
export const failedLine: typeof Cold.failedLine = (...args) => load().failedLine(...args);
export const makeWindowKnown: typeof Cold.makeWindowKnown = (...args) =>
  load().makeWindowKnown(...args);
export const takeSaveFailure: typeof Cold.takeSaveFailure = (...args) =>
  load().takeSaveFailure(...args);
export const withSaveFailure: typeof Cold.withSaveFailure = (...args) =>
  load().withSaveFailure(...args);
