import { describe, expectTypeOf, it } from "vitest";
import type { OptionValues } from "../../../cli/command.ts";

// Type tests: vitest's typecheck runs them (vitest.config.ts), so a wrong type fails the run.
const options = {
  mode: { type: "enum", values: ["a", "b"] },
  force: { type: "boolean" },
  name: { type: "string", hint: "NAME" },
  tag: { type: "string", hint: "TAG", multiple: true },
} as const;

describe("defineCommand: options typed from their definition", () => {
  it("types each kind: enum -> its values, boolean -> boolean, string -> string | undefined, multiple -> string[]", () => {
    expectTypeOf<OptionValues<typeof options>>().toEqualTypeOf<{
      mode: "a" | "b" | undefined;
      force: boolean;
      name: string | undefined;
      tag: string[];
    }>();
  });
});
