import { describe, expect, it } from "vitest";
import { appendLedgerRow, ledgerRow } from "../../../lib/store/cost-ledger.ts";
import { fakeDeps, readText } from "../../helpers/memfs-deps.ts";

describe("cost ledger", () => {
  it("writes the seed's row shape", () => {
    const deps = fakeDeps({ files: { "/p/.workflow_artifacts/parser/plan.md": "" } });
    const row = ledgerRow("s1", new Date("2026-11-29T10:00:00Z"), "save (restore mode)");
    expect(row).toBe("s1 | 2026-11-29 | checkpoint | sonnet | task | save (restore mode) | 0");
    appendLedgerRow(deps.fs, "/p", "parser", row);
    appendLedgerRow(
      deps.fs,
      "/p",
      "parser",
      ledgerRow(null, new Date("2026-11-29T10:00:00Z"), "a|b"),
    );
    expect(readText(deps, "/p/.workflow_artifacts/parser/cost-ledger.md")).toBe(
      `${row}\nunknown | 2026-11-29 | checkpoint | sonnet | task | a b | 0\n`,
    );
  });

  it("is written only where .workflow_artifacts/<task>/ already exists (quoin's workflow made it)", () => {
    const deps = fakeDeps({ files: { "/p/.workflow_artifacts/memory/recent-sessions.md": "" } });
    expect(appendLedgerRow(deps.fs, "/p", "parser", "row")).toBeNull();
    expect(deps.fs.existsSync("/p/.workflow_artifacts/parser")).toBe(false);
  });
});
