import { nodeDeps } from "../lib/edge/node-deps.ts";
import { runStatusLine } from "../lib/edge/statusline-runner.ts";

// dist/statusline.cjs: Claude Code's status-line command, its own small bundle (it runs on every draw).
void runStatusLine(nodeDeps(), process.argv.slice(2));
