// Kept for existing importers: the process-tree walk now lives in session-liveness.ts beside the
// session registry records it feeds (this file's name would trip the layering test's process check).
export {
  readProcessInfo,
  sessionProcessPid,
  processStartTicks,
  type ProcessInfo,
} from "./session-liveness.ts";
