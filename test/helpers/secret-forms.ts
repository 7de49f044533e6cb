import { REDACTED } from "../../lib/core/secret-redact.ts";

// The 25 secret forms a security review typed into checkpoints (in a prompt, a failing command,
// the model's words, the save document), the part that must never leave, and the line each
// becomes; 14 of them reached a bare remote verbatim before the rules of lib/core/secret-redact.ts.

export const SECRET_FORMS: readonly [
  form: string,
  line: string,
  secret: string,
  becomes: string,
][] = [
  [
    "URL password holding /",
    "git push https://deploy:pa/ss2024x@git.example.com/shop.git",
    "pa/ss2024x",
    `git push https://deploy:${REDACTED}@git.example.com/shop.git`,
  ],
  [
    "URL password holding @",
    "curl https://u:p@ssw0rd2024@api.example.com/v1",
    "ssw0rd2024",
    `curl https://u:${REDACTED}@api.example.com/v1`,
  ],
  [
    "URL with no user",
    "redis-cli -u redis://:R3disPassw0rd@cache:6379",
    "R3disPassw0rd",
    `redis-cli -u redis://:${REDACTED}@cache:6379`,
  ],
  [
    "URL user and password",
    "DATABASE_URL=postgres://app:Pg9pass@db:5432/shop",
    "Pg9pass",
    `DATABASE_URL=postgres://app:${REDACTED}@db:5432/shop`,
  ],
  [
    "*_PASS assignment",
    "DB_PASS=Tr0ub4dor3x npm run migrate",
    "Tr0ub4dor3x",
    `DB_PASS=${REDACTED} npm run migrate`,
  ],
  [
    "PGPASSWORD",
    "PGPASSWORD=PgPassw0rd psql -h db",
    "PgPassw0rd",
    `PGPASSWORD=${REDACTED} psql -h db`,
  ],
  [
    "*_KEY with a Stripe key",
    "STRIPE_KEY=sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "4eC39HqLyjWDarjtT1zdp7dc",
    `STRIPE_KEY=${REDACTED}`,
  ],
  [
    "*_TOKEN assignment",
    "export API_TOKEN=abc123def456",
    "abc123def456",
    `export API_TOKEN=${REDACTED}`,
  ],
  [
    "*_SECRET* assignment",
    "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "wJalrXUtnFEMI",
    `AWS_SECRET_ACCESS_KEY=${REDACTED}`,
  ],
  [
    "Authorization: token",
    "curl -H 'Authorization: token 0123456789abcdef0123456789abcdef01234567' https://api.github.com",
    "0123456789abcdef0123456789abcdef01234567",
    `curl -H 'Authorization: token ${REDACTED}' https://api.github.com`,
  ],
  [
    "Authorization: Bearer",
    "Authorization: Bearer a8F3kL0pQ2rT5vX7zB9dE1gH",
    "a8F3kL0pQ2rT5vX7zB9dE1gH",
    `Authorization: Bearer ${REDACTED}`,
  ],
  [
    "Authorization: Basic",
    "Authorization: Basic YWRtaW46c2VjcmV0",
    "YWRtaW46c2VjcmV0",
    `Authorization: Basic ${REDACTED}`,
  ],
  [
    "Authorization with no scheme",
    "Authorization: 9f86d081884c7d659a2feaa0c55ad015",
    "9f86d081884c7d659a2feaa0c55ad015",
    `Authorization: ${REDACTED}`,
  ],
  [
    "Stripe restricted key",
    "rk_live_51HxAbCdEfGhIjKlMnOp failed",
    "51HxAbCdEfGhIjKlMnOp",
    `${REDACTED} failed`,
  ],
  [
    "SendGrid key",
    "SG.aBcDeFgHiJkLmNoPqRsTu.vWxYz0123456789AbCdEfGhIjKlMnOpQ rejected",
    "vWxYz0123456789",
    `${REDACTED} rejected`,
  ],
  [
    "Twilio key",
    "twilio --api-key SK0123456789abcdef0123456789abcdef",
    "0123456789abcdef0123456789abcdef",
    `twilio --api-key ${REDACTED}`,
  ],
  [
    "Slack webhook",
    "POST https://hooks.slack.com/services/T0A1B2C3D/B0E1F2G3H/aBcDeFgHiJkLmNoPqRsTuVwX 404",
    "aBcDeFgHiJkLmNoPqRsTuVwX",
    `POST ${REDACTED} 404`,
  ],
  ["Slack user token", "xoxp-1234567890-0987654321-QwErTyUiOpAs", "QwErTyUiOpAs", REDACTED],
  [
    "htpasswd apr1",
    "admin:$apr1$r31.aBcD$HqJZimcKQFAMYayBlzkrA/",
    "HqJZimcKQFAMYayBlzkrA/",
    `admin:${REDACTED}`,
  ],
  [
    "htpasswd bcrypt",
    "deploy:$2y$05$abcdefghijklmnopqrstuuN8CqsJ3b4bS3tU8QZ9HtGZr5NqjW2yW",
    "N8CqsJ3b4bS3tU8QZ9HtGZr5NqjW2yW",
    `deploy:${REDACTED}`,
  ],
  [
    "curl -u user:pw",
    "curl -u admin:Adm1nS3cret https://api.example.com",
    "Adm1nS3cret",
    `curl -u admin:${REDACTED} https://api.example.com`,
  ],
  [
    "mysql -p<pw>",
    "mysql -uroot -pMyS3cretPw shop",
    "MyS3cretPw",
    `mysql -uroot -p${REDACTED} shop`,
  ],
  [
    "mysqldump and mariadb -p<pw>",
    "mysqldump -u root -pDumpS3cret db && mariadb -pMariaS3cret",
    "S3cret",
    `mysqldump -u root -p${REDACTED} db && mariadb -p${REDACTED}`,
  ],
  [
    "sshpass -p",
    "sshpass -p 'Sup3rS3cret' ssh deploy@host",
    "Sup3rS3cret",
    `sshpass -p ${REDACTED} ssh deploy@host`,
  ],
  [
    "--password and --password=",
    "pg_dump --password Pg5ecretPw; psql --password=Pg5ecretPw2",
    "Pg5ecretPw",
    `pg_dump --password ${REDACTED}; psql --password=${REDACTED}`,
  ],
];
