import { describe, expect, it } from "vitest";
import { redactSecrets } from "../../../lib/core/secret-redact.ts";
import { SECRET_FORMS } from "../../helpers/secret-forms.ts";

// The 25 forms of test/helpers/secret-forms.ts, each to the line it must become, then near
// misses: ordinary lines that must stay as they are.

const NEAR_MISSES = [
  "cp -pr src/ dist/",
  "tar -pczf out.tgz build",
  "ssh -p 22 deploy@host.example.com",
  "PRIMARY_KEY=id",
  "SORT_KEY=created_at",
  "mail alice@example.com about the release",
  "git clone git@github.com:org/repo.git",
  "https://github.com/org/repo/tree/main",
  "http://localhost:3000/@vite/client",
  "http://host.example:8080/@admin",
  "docker run -u 1000:1000 app",
  "mysql -u root -p shop",
  "mkdir -p build && npm i @scope/pkg",
  "BYPASS=1 npm test",
  "docker login --password-stdin",
  "Authorization: required for the admin routes",
  "- tokens: 93000 of 200000 (46 %)",
  "the primary key of the orders table is order_id",
  "alice@laptop:~/work/shop$ npm test",
];

describe("redactSecrets on the 25 forms", () => {
  it("counts 25 forms", () => expect(SECRET_FORMS).toHaveLength(25));

  for (const [form, line, secret, becomes] of SECRET_FORMS)
    it(`${form}: the value goes, what names it stays`, () => {
      const out = redactSecrets(line);
      expect(out).toBe(becomes);
      expect(out).not.toContain(secret);
      expect(redactSecrets(out)).toBe(out);
    });

  it("leaves the near misses alone", () => {
    for (const line of NEAR_MISSES) expect(redactSecrets(line), line).toBe(line);
  });
});
