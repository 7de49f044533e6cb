import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { runInstall, type InstallOptions } from "../../../lib/install/installer.ts";
import { compareVersions, replacementLine } from "../../../lib/install/install-version.ts";
import { runDoctorChecks } from "../../../lib/install/doctor-checks.ts";
import { memDeps } from "../../helpers/mem-install-deps.ts";
import { BUILT, DIST, installOptions } from "../../helpers/install-world.ts";

const opts = (packageVersion: string): InstallOptions => installOptions({ packageVersion });
const STATE = "/home/u/.claude/quoin-checkpoint/install-state.json";

describe("install version and build hash", () => {
  it("orders versions numerically, a pre-release before its release", () => {
    expect(compareVersions("0.10.0", "0.9.3")).toBe(1);
    expect(compareVersions("1.0.0-rc.1", "1.0.0")).toBe(-1);
    expect(compareVersions("1.2.3", "v1.2.3")).toBe(0);
  });

  it("records the version and build hash, and says upgrade, downgrade or a different build", () => {
    const { deps, vol } = memDeps(BUILT);
    const first = runInstall(deps, opts("0.1.0"));
    expect(first.lines.join("\n")).not.toMatch(/replace/);
    const state = JSON.parse(String(deps.fs.readFileSync(STATE, "utf8")));
    expect(state.packageVersion).toBe("0.1.0");
    expect(state.buildHash).toMatch(/^[0-9a-f]{12}$/);
    expect(runInstall(deps, opts("0.2.0")).lines).toContain(
      "[quoin] upgrade: 0.2.0 replaces 0.1.0",
    );
    expect(runInstall(deps, opts("0.1.0")).lines).toContain(
      "[quoin] DOWNGRADE: 0.1.0 replaces 0.2.0, a newer version",
    );
    vol.writeFileSync(`${DIST}/hooks/sessionend.cjs`, "// se, rebuilt\n");
    const rebuilt = runInstall(deps, opts("0.1.0")).lines.join("\n");
    expect(rebuilt).toMatch(
      /0\.1\.0 replaces a different build of 0\.1\.0 \(build [0-9a-f]{12} -> /,
    );
    expect(runInstall(deps, opts("0.1.0")).lines).toContain(
      "[quoin] already installed; nothing to change",
    );
  });

  it("says so over an install from before versions were recorded", () => {
    expect(replacementLine({}, { packageVersion: "0.1.0", buildHash: "x" }, true)).toBe(
      "[quoin] 0.1.0 would replace an install from before versions were recorded",
    );
  });

  it("warns at install and in doctor when the plugin is enabled too", () => {
    const { deps } = memDeps({
      ...BUILT,
      "/home/u/.claude/settings.json": '{ "enabledPlugins": { "quoin-checkpoint@quoin": true } }\n',
    });
    const res = runInstall(deps, {
      ...opts("0.1.0"),
      invocation: { via: "npm-global", command: "quoin-checkpoint" },
    });
    expect(res.lines.join("\n")).toContain(
      "every hook would run twice. Keep one: remove this install with quoin-checkpoint uninstall, or run /plugin uninstall quoin-checkpoint in Claude Code",
    );
    const twice = runDoctorChecks(deps, { nodeVersion: "v20.20.2" }).find(
      (c) => c.name === "one install only",
    );
    expect(twice?.ok).toBe(false);
  });

  it("doctor says `quoin-checkpoint <cmd>` works only when the PATH one is this install's version", () => {
    for (const [onPath, expected] of [
      ["0.1.0", "0.1.0, this install's version: quoin-checkpoint <cmd> works"],
      ["0.0.9", "it is 0.0.9, this install is 0.1.0: run the engine by its path, e.g. node"],
      [null, "none; run the engine by its path, e.g. node"],
    ] as const) {
      const { deps } = memDeps(BUILT, {
        run: (cmd) =>
          cmd === "quoin-checkpoint"
            ? onPath === null
              ? { status: null, stdout: "", stderr: "ENOENT" }
              : { status: 0, stdout: `${onPath}\n`, stderr: "" }
            : { status: 0, stdout: "", stderr: "" },
      });
      runInstall(deps, opts("0.1.0"));
      const check = runDoctorChecks(deps, { nodeVersion: "v20.20.2" }).find((c) =>
        c.name.includes("on the PATH"),
      );
      expect(check?.detail).toContain(expected);
      expect(check?.warn === true).toBe(onPath === "0.0.9");
    }
  });
});

describe("the plugin's version follows the package's", () => {
  it("plugin.json and the marketplace entry carry package.json's version", () => {
    const root = path.resolve(import.meta.dirname, "..", "..", "..");
    const read = (f: string) => JSON.parse(readFileSync(path.join(root, f), "utf8"));
    const version = read("package.json").version;
    expect(read("plugin/.claude-plugin/plugin.json").version).toBe(version);
    const market = read(".claude-plugin/marketplace.json");
    for (const p of market.plugins ?? [])
      if (p.version !== undefined) expect(p.version).toBe(version);
  });
});
