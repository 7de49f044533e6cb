import { formatDoctor, runDoctorChecks } from "../../lib/install/doctor-checks.ts";
import { printJson } from "../cli-context.ts";
import type { Command } from "../command.ts";

export const doctorCommand: Command = {
  name: "doctor",
  summary: "check node, the installed files, settings entries, hook start-up time, and the window of recent sessions",
  usage: "doctor [--cwd DIR] [--json]",
  options: {},
  run(ctx) {
    const checks = runDoctorChecks({ ...ctx.deps, cwd: ctx.cwd }, { nodeVersion: process.version, knobs: ctx.knobs });
    const ok = checks.every((c) => c.ok);
    if (ctx.json) printJson(ctx, { ok, checks });
    else ctx.stdout(formatDoctor(checks));
    return ok ? 0 : 1;
  },
};
