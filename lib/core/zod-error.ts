import type * as z from "zod/mini";

/** A zod error as one line for a person: `path: message; path: message` (`(root)` for the value itself). */
export function describeZodError(error: z.core.$ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
}
