import { defineConfig } from "vitest/config";

// Two projects: every test on Claude Code 2.1.197 (the oldest supported client), and a subset of
// the real-client files again on 2.1.332 (the newest; QUOIN_E2E_CLIENT picks the binary in
// test/e2e/loopback-model.ts). The subset covers hooks firing, the prompt hook, fork, resume and
// the prompt's source; README "Claude Code versions" says which.
const NEWEST_E2E = [
  "test/e2e/sessionstart-system-message.test.ts",
  "test/e2e/userpromptsubmit-real-client.test.ts",
  "test/e2e/newest-client.test.ts",
  "test/e2e/checkpoint-command-collision.test.ts",
];

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
        },
      },
      {
        extends: true,
        test: {
          name: "claude-2.1.332",
          include: NEWEST_E2E,
          env: { QUOIN_E2E_CLIENT: "newest" },
        },
      },
    ],
  },
});
