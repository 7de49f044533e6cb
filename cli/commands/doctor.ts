import { formatDoctor, runDoctorChecks } from "../../lib/install/doctor-checks.ts";
import { printJson } from "../cli-context.ts";
import { EXIT } from "../answer.ts";
import { defineCommand } from "../command.ts";

export const doctorCommand = defineCommand({
  name: "doctor",
  summary:
    "check node, the installed files, settings entries, hook start-up time, and the window of recent sessions",
  options: {},
  namesCommandsItself: true,
  run(ctx) {
    const checks = runDoctorChecks(
      { ...ctx.deps, cwd: ctx.cwd },
      { nodeVersion: ctx.deps.nodeVersion, knobs: ctx.knobs },
    );
    const ok = checks.every((c) => c.ok);
    const failed = checks.filter((c) => !c.ok).map((c) => c.name);
    // a failed check is a refused answer: ok false, the failed checks' names as the reason
    if (ctx.json)
      printJson(ctx, { ok, ...(ok ? {} : { reason: `failed: ${failed.join(", ")}` }), checks });
    else ctx.stdout(formatDoctor(checks));
    return ok ? EXIT.done : EXIT.refused;
  },
});
