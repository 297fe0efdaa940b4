/**
 * The session: the access token lives in localStorage under `accessToken`; the signed-in admin lives
 * in a small persisted store under the key `admin` (the only persisted state, part 1 section 4).
 */
import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";
import type { Role } from "../../../shared/roles.ts";
import { homePathFor } from "../../../shared/roles.ts";
import type { PublicUser } from "../../../shared/api/users.ts";

export const TOKEN_KEY = "accessToken";
export const ADMIN_KEY = "admin";

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

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function startSession(admin: Admin, accessToken: string) {
  localStorage.setItem(TOKEN_KEY, accessToken);
  useAuth.getState().setAdmin(admin);
  useAuth.getState().setSessionError(null);
}

/** Forgets the token and the admin info (logout, or any 401). */
export function clearSession() {
  localStorage.removeItem(TOKEN_KEY);
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
