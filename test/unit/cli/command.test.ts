import { describe, expect, it } from "vitest";
import { defineCommand, type OptionValues } from "../../../cli/command.ts";
import { runCli } from "../../../cli/run-cli.ts";
import { saveCommand } from "../../../cli/commands/save.ts";
import { memDeps } from "../../helpers/mem-install-deps.ts";

const options = {
  mode: { type: "enum", values: ["a", "b"] },
  force: { type: "boolean" },
  name: { type: "string", hint: "NAME" },
  tag: { type: "string", hint: "TAG", multiple: true },
} as const;

function probe() {
  const seen: Array<OptionValues<typeof options>> = [];
  const command = defineCommand({
    name: "probe",
    summary: "test",
    options,
    run(_ctx, values) {
      seen.push(values);
      return 0;
    },
  });
  const run = (argv: string[]) => {
    let out = "";
    let err = "";
    const code = runCli(
      ["probe", ...argv],
      memDeps().deps,
      { stdout: (t) => (out += t), stderr: (t) => (err += t), readStdin: () => "" },
      [command],
    );
    return { code, out, err };
  };
  return { command, seen, run };
}

describe("defineCommand: options typed from their definition", () => {
  it("hands run the parsed values, with false and [] for absent flags", () => {
    const p = probe();
    expect(p.run(["--mode", "b", "--tag", "x", "--tag", "y"]).code).toBe(0);
    expect(p.run([]).code).toBe(0);
    expect(p.seen).toEqual([
      { mode: "b", force: false, name: undefined, tag: ["x", "y"] },
      { mode: undefined, force: false, name: undefined, tag: [] },
    ]);
  });

  it("refuses an enum value outside its list as a usage error (exit 2), naming the choices", () => {
    const p = probe();
    const r = p.run(["--mode", "c", "--json"]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out)).toEqual({
      ok: false,
      reason: 'probe: --mode "c" is not valid; expected one of: a, b',
      expected: "--mode a|b",
    });
    expect(p.seen).toEqual([]);
  });

  it("generates the usage line from the same definition", () => {
    expect(probe().command.usage).toBe(
      "probe [--mode a|b] [--force] [--name NAME] [--tag TAG]... [--session ID] [--cwd DIR] [--json]",
    );
    expect(saveCommand.usage).toBe(
      "save [--mode restore|load-as-reference|mid-agent] [--ask-mode] [--asked] [--no-cleanup] [--after-compact] [--task NAME] [--intent TEXT] [--note TEXT]... " +
        "[--in-progress TEXT] [--next ITEM]... [--next-blocked ITEM]... [--blocker TEXT]... [--stdin-json] [--transcript PATH] [--session ID] [--cwd DIR] [--json]",
    );
  });
});
