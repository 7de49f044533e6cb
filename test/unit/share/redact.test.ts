import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { REDACTED, redactSecrets, SECRET_RULE_NAMES } from "../../../lib/core/secret-redact.ts";
import { redactForSharing, redactPaths } from "../../../lib/share/redact.ts";

const WHERE = { root: "/home/alice/work/shop", home: "/home/alice" };

// One typed example per rule, and the part of it that must go; the test below checks each rule has one.
const SECRETS: Record<string, [example: string, secret: string]> = {
  "private-key": [
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----",
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ",
  ],
  anthropic: ["sk-ant-api03-Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz", "Df2Gh1Jk0Lz"],
  openai: ["sk-proj-4fG7hJ2kL9mN3pQ6rS8tV1wX5yZ0aB", "tV1wX5yZ0aB"],
  stripe: ["sk_live_51Hx9AbCdEfGhIjKlMnOpQr", "51Hx9AbCdEfGhIjKlMnOpQr"],
  sendgrid: [
    "SG.aBcDeFgHiJkLmNoPqRsTu.vWxYz0123456789AbCdEfGhIjKlMnOpQ",
    "vWxYz0123456789AbCdEfGhIjKlMnOpQ",
  ],
  twilio: ["SK0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef"],
  "slack-webhook": [
    "https://hooks.slack.com/services/T0A1B2C3D/B0E1F2G3H/aBcDeFgHiJkLmNoPqRsTuVwX",
    "aBcDeFgHiJkLmNoPqRsTuVwX",
  ],
  "github-pat": ["github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv", "ghijklmnopqrstuv"],
  "github-token": ["ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF2hJ5", "W4yZ7bC0eF2hJ5"],
  slack: ["xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "AbCdEfGhIjKlMnOpQrStUvWx"],
  "aws-access-key": ["AKIAIOSFODNN7EXAMPLE", "IOSFODNN7EXAMPLE"],
  "google-api-key": ["AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW", "j0KlMnOpQrStUvW"],
  "gitlab-pat": ["glpat-xY9zW8vU7tS6rQ5pO4nM", "xY9zW8vU7tS6rQ5pO4nM"],
  "npm-token": ["npm_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789", "XyZ0123456789"],
  jwt: [
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "I9PlFUP0THsR8U",
  ],
  "password-hash": ["admin:$apr1$r31.aBcD$HqJZimcKQFAMYayBlzkrA/", "HqJZimcKQFAMYayBlzkrA/"],
  "authorization-header": [
    "Authorization: token 0123456789abcdef0123456789abcdef01234567",
    "0123456789abcdef0123456789abcdef01234567",
  ],
  bearer: ["curl with Bearer a8F3kL0pQ2rT5vX7zB9dE1gH", "a8F3kL0pQ2rT5vX7zB9dE1gH"],
  "url-credentials": ["https://deploy:Hunter2pass@git.example.com/shop.git", "Hunter2pass"],
  "mysql-password-flag": ["mysql -u root -pS3cretPassw0rd shop", "S3cretPassw0rd"],
  sshpass: ["sshpass -p Hunter2Secret ssh deploy@host", "Hunter2Secret"],
  "user-password-flag": ["curl -u admin:Adm1nPassw0rd https://x.example", "Adm1nPassw0rd"],
  "password-flag": ["psql --password Pgs3cretValue", "Pgs3cretValue"],
  "env-assignment": ["DB_PASS=Hunter2Passw0rd", "Hunter2Passw0rd"],
  assignment: ["DB_PASSWORD=correct-horse-battery", "correct-horse-battery"],
  "keyword-run": [
    "the signing key 9fA3kQ7zL2mX8pW4rT6vB1nC5dE0gH",
    "9fA3kQ7zL2mX8pW4rT6vB1nC5dE0gH",
  ],
};

describe("redactSecrets", () => {
  it("has a typed example for every rule", () => {
    expect(Object.keys(SECRETS).sort()).toEqual([...SECRET_RULE_NAMES].sort());
  });

  for (const [rule, [example, secret]] of Object.entries(SECRETS)) {
    it(`replaces a ${rule} inside a sentence`, () => {
      const out = redactSecrets(`ran the deploy with ${example} and it failed`);
      expect(out).toContain(REDACTED);
      expect(out).not.toContain(secret);
      expect(out.startsWith("ran the deploy with ")).toBe(true);
    });
  }

  it("keeps the name of an assigned secret and drops its value, quoted or not", () => {
    expect(redactSecrets("token=abc123 and password: 'hunter2'")).toBe(
      `token=${REDACTED} and password: ${REDACTED}`,
    );
    expect(redactSecrets('"api_key": "zzz"')).toBe(`"api_key": ${REDACTED}`);
  });

  it("redacts an unterminated private key block to the end", () => {
    expect(redactSecrets("x\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow")).toBe(`x\n${REDACTED}`);
  });

  it("leaves ordinary checkpoint lines alone", () => {
    const lines = [
      "- lib/share/redact.ts: the redaction of shared checkpoints",
      "- a1b2c3d Fix the sk- prefix check in the parser",
      "the primary key of the orders table is order_id",
      "ask-the-user before pruning; task-sharing-through-git",
      "## Session ID\n7f3e9a10-5b2c-4d8e-9f01-23456789abcd",
      "- Resume: claude --resume 7f3e9a10-5b2c-4d8e-9f01-23456789abcd",
      "the keyboard-shortcuts-settings-panel component",
      "- tokens: 93000 of 200000 (46 %)",
      "the primary key: src/components/HeaderPanel2Main.tsx",
      "passwords are hashed with argon2 in lib/auth.ts",
    ];
    for (const line of lines) expect(redactSecrets(line)).toBe(line);
  });

  test.prop([fc.stringMatching(/^[A-Za-z0-9]{36}$/)])("any ghp_ token of 36 goes", (body) => {
    expect(redactSecrets(`push with ghp_${body} now`)).toBe(`push with ${REDACTED} now`);
  });

  test.prop([fc.stringMatching(/^[A-Z0-9]{16}$/)])("any AKIA key goes", (body) => {
    expect(redactSecrets(`aws AKIA${body}.`)).toBe(`aws ${REDACTED}.`);
  });

  test.prop([
    fc.constantFrom("password", "token", "secret", "api_key", "GITHUB_TOKEN", "passwd"),
    fc.constantFrom("=", ": ", "="),
    fc.stringMatching(/^[A-Za-z0-9!#%+./@^-]{1,40}$/),
  ])("any value assigned to a secret-named variable goes", (name, sep, value) => {
    expect(redactSecrets(`${name}${sep}${value}`)).toBe(`${name}${sep}${REDACTED}`);
  });

  test.prop([fc.string({ maxLength: 200 })])("redaction is idempotent", (s) => {
    const once = redactSecrets(s);
    expect(redactSecrets(once)).toBe(once);
  });
});

describe("redactPaths", () => {
  it("makes project paths relative, home paths ~, and the project root itself .", () => {
    expect(
      redactPaths(
        "- session-state: /home/alice/work/shop/.workflow_artifacts/memory/sessions/a.md\nread /home/alice/notes.txt in /home/alice/work/shop",
        WHERE,
      ),
    ).toBe("- session-state: .workflow_artifacts/memory/sessions/a.md\nread ~/notes.txt in .");
  });

  it("drops the transcript folder name that encodes the absolute path, in the link and in text", () => {
    const out = redactPaths(
      "- JSONL: ~/.claude/projects/-home-alice-work-shop/7f3e.jsonl\nsee -home-alice-work-shop",
      WHERE,
    );
    expect(out).toBe("- JSONL: ~/.claude/projects/[project]/7f3e.jsonl\nsee [project]");
  });

  it("does not rewrite a longer name that only starts with the root", () => {
    expect(redactPaths("/home/alice/work/shop2/x.ts", WHERE)).toBe("~/work/shop2/x.ts");
    // another user's home is still a home: `~`, never its name
    expect(redactPaths("/home/alicebob/x", WHERE)).toBe("~/x");
  });

  test.prop([fc.stringMatching(/^[a-z0-9_.-]{1,12}(\/[a-z0-9_.-]{1,12}){0,3}$/)])(
    "no project path keeps the home folder after redaction",
    (rel) => {
      const out = redactForSharing(`failed at /home/alice/work/shop/${rel} (exit 1)`, WHERE);
      expect(out).not.toContain("/home/alice");
      expect(out).toContain(rel.replace(/^\/+/, ""));
    },
  );
});

describe("redactPaths on other users' homes", () => {
  it("writes any /home/<name> or /Users/<name> path as ~, never the name", () => {
    expect(
      redactPaths("see /home/bob/review.md, /Users/carol/Desktop/plan.txt and /home/dave", WHERE),
    ).toBe("see ~/review.md, ~/Desktop/plan.txt and ~");
  });

  it("leaves paths that only look like one alone", () => {
    for (const line of ["/homework/x", "/srv/home/bob/x", "docs/home/bob.md", "/home", "~/x"])
      expect(redactPaths(line, WHERE), line).toBe(line);
  });
});

describe("redactPaths with other spellings", () => {
  it("rewrites the real path of a symlinked root or home the same way", () => {
    const where = {
      ...WHERE,
      rootAliases: ["/private/home/alice/work/shop"],
      homeAliases: ["/data/alice"],
    };
    expect(redactPaths("/private/home/alice/work/shop/app.ts and /data/alice/x", where)).toBe(
      "app.ts and ~/x",
    );
    expect(redactPaths("-private-home-alice-work-shop", where)).toBe("[project]");
  });
});
