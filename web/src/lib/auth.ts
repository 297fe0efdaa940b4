/**
 * The session: the access token lives in an httpOnly cookie the server sets at sign-in, out of reach
 * of any script (the spec kept it in localStorage under `accessToken`; an injected script could read
 * it there). The page only sees the CSRF cookie beside it, which it echoes on writes and which tells
 * it a session is there. The signed-in admin lives in a small persisted store under the key `admin`
 * (the only persisted state, part 1 section 4): profile data, no secret.
 */
import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";
import type { Role } from "../../../shared/roles.ts";
import { homePathFor } from "../../../shared/roles.ts";
import type { PublicUser } from "../../../shared/api/users.ts";
import { CSRF_COOKIE } from "../../../shared/api/session.ts";

/** Where earlier versions kept the token: removed at load, so none lingers in storage. */
export const LEGACY_TOKEN_KEY = "accessToken";
export const ADMIN_KEY = "admin";

try {
  localStorage.removeItem(LEGACY_TOKEN_KEY);
} catch { /* storage off */ }

/** The signed-in user as kept in the browser: the part of the API's user the app shows and checks. */
export type Admin = Pick<
  PublicUser,
  "_id" | "firstName" | "lastName" | "fullName" | "email" | "role" | "supplierId" | "isActive"
>;

type AuthState = {
  admin: Admin | null;
  /** Last session error worth recording (for example 'Can not logout now!'); not persisted. */
  sessionError: string | null;
  setAdmin: (admin: Admin | null) => void;
  setSessionError: (message: string | null) => void;
};

export const useAuth = create<AuthState>()(
  persist(
    (set) => ({
      admin: null,
      sessionError: null,
      setAdmin: (admin) => set({ admin }),
      setSessionError: (sessionError) => set({ sessionError }),
    }),
    {
      name: ADMIN_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ admin: s.admin }),
    },
  ),
);

/** The session's CSRF token (from its readable cookie), or null when there is no session. */
/** Whether the signed-in role is among `roles` (a call's: `contract.roles`); false signed out. */
export function useMayCall(roles: readonly Role[]): boolean {
  const role = useAuth((s) => s.admin?.role);
  return !!role && roles.includes(role);
}

export function csrfToken(): string | null {
  try {
    for (const part of document.cookie.split(";")) {
      const i = part.indexOf("=");
      if (i > 0 && part.slice(0, i).trim() === CSRF_COOKIE) {
        return decodeURIComponent(part.slice(i + 1).trim()) || null;
      }
    }
  } catch { /* no document */ }
  return null;
}

/** Whether the browser holds a session (its cookies expire with the token). */
export function hasSession(): boolean {
  return csrfToken() !== null;
}

/** After sign-in (the server has set the cookies): keeps the admin info. */
export function startSession(admin: Admin) {
  useAuth.getState().setAdmin(admin);
  useAuth.getState().setSessionError(null);
}

/**
 * Forgets the admin info and the CSRF cookie (logout, or any 401). The httpOnly session cookie is the
 * server's to clear: sign-out and a 401 for a dead cookie both do.
 */
export function clearSession() {
  try {
    document.cookie = `${CSRF_COOKIE}=; Max-Age=0; Path=/; SameSite=Strict`;
  } catch { /* no document */ }
  useAuth.getState().setAdmin(null);
}

export function currentAdmin(): Admin | null {
  return useAuth.getState().admin;
}

/** Where the login route sends a signed-in user: suppliers to their portal, staff to /admin. */
export function landingPathFor(role: Role): string {
  return role === "SUPPLIER" ? homePathFor(role) : "/admin";
}

export function initialsOf(admin: Pick<Admin, "firstName" | "lastName" | "email">): string {
  const a = admin.firstName?.trim()[0] ?? "";
  const b = admin.lastName?.trim()[0] ?? "";
  return (a + b || admin.email[0] || "?").toUpperCase();
}
