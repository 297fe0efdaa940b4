/** Route guards as loaders, so a refused screen never renders (part 1, 2.1). */
import { type LoaderFunctionArgs, redirect } from "react-router";
import { canOpenScreen } from "../../../shared/permissions.ts";
import { clearSession, currentAdmin, hasSession, landingPathFor } from "../lib/auth.ts";

/** The signed-in admin, or a redirect to /login (admin info and the session cookie must both be present). */
function requireAdmin() {
  const admin = currentAdmin();
  if (!admin || !hasSession()) {
    if (admin) clearSession();
    throw redirect("/login");
  }
  return admin;
}

export function requireSignedIn() {
  requireAdmin();
  return null;
}

/** A screen of the permission table: no admin info -> /login, role not allowed -> /404. */
export function requireScreen({ request }: LoaderFunctionArgs) {
  const admin = requireAdmin();
  const path = new URL(request.url).pathname.replace(/\/+$/, "") || "/";
  if (!canOpenScreen(admin.role, path)) throw redirect("/404");
  return null;
}

/** The login route sends a signed-in user on: SUPPLIER to /supplier/project, others to /admin. */
export function redirectIfSignedIn() {
  const admin = currentAdmin();
  if (admin && hasSession()) throw redirect(landingPathFor(admin.role));
  return null;
}
