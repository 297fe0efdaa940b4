import type { TestApp } from "./app.ts";
import { loginCall } from "../../shared/api/session.ts";

/** Signs in from an address (the app trusts one proxy); returns the status. */
export async function loginFrom(t: TestApp, ip: string, email: string, password: string) {
  const r = await t.api(loginCall, {
    body: { email, password },
    headers: { "x-forwarded-for": ip },
  });
  return r.status;
}
