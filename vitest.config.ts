import { defineConfig } from "vitest/config";

// Two projects: every test on Claude Code 2.1.197 (the oldest supported client), and the whole
// end-to-end suite again on 2.1.332 (the newest; QUOIN_E2E_CLIENT picks the binary in
// test/e2e/loopback-model.ts). newest-client.test.ts runs on 2.1.332 only: it checks what only
// that client sends (SessionStart `fork`, the resume fields). docs/claude-code-versions.md.
export default defineConfig({
  test: {
    testTimeout: 20_000,
    pool: "forks",
    globalSetup: ["test/global-setup.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "claude-2.1.197",
          include: ["test/**/*.test.ts"],
          exclude: ["test/e2e/newest-client.test.ts"],
          // The type tests (*.test-d.ts, expectTypeOf) run through tsc in the same run: a wrong
          // type fails vitest, not only `tsc --noEmit`. Their own tsconfig holds only them (and
          // what they import): with the root one tsc checks the whole tree, 10x the time.
          typecheck: {
            enabled: true,
            include: ["test/**/*.test-d.ts"],
            tsconfig: "test/tsconfig.type-tests.json",
          },
        },
      },
      {
        extends: true,
        test: {
          name: "claude-2.1.332",
          include: ["test/e2e/**/*.test.ts"],
          env: { QUOIN_E2E_CLIENT: "newest" },
        },
      },
    ],
  },
});
