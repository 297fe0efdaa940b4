/** Demo data for a fresh database (SEED=demo, the default), through the same domain functions. */
import type { Deps } from "../../deps.ts";
import { SYSTEM_ACTOR } from "../audit/log.ts";
import { createUser } from "../users/users.ts";
import type { Role } from "../../../shared/roles.ts";

export const DEMO_PASSWORD = "Samplex@2026";

/** One login per role: `<role>@samplex.demo` (lower case), password DEMO_PASSWORD. */
export const DEMO_USERS: { role: Role; firstName: string; lastName: string }[] = [
  { role: "SUPERADMIN", firstName: "Sophia", lastName: "Reyes" },
  { role: "ADMIN", firstName: "Arjun", lastName: "Mehta" },
  { role: "MANAGER", firstName: "Megan", lastName: "Clarke" },
  { role: "ACCOUNTANT", firstName: "Aiden", lastName: "Novak" },
  { role: "SUBSCRIBER", firstName: "Sarah", lastName: "Lindqvist" },
  { role: "APIMANAGER", firstName: "Priya", lastName: "Nair" },
  { role: "BDE", firstName: "Bruno", lastName: "Costa" },
];

export const demoEmail = (role: Role) => `${role.toLowerCase()}@samplex.demo`;

export async function seedDemo(deps: Deps): Promise<Record<string, number>> {
  const counts: Record<string, number> = { users: 0 };
  for (const u of DEMO_USERS) {
    await createUser(deps.db, SYSTEM_ACTOR, {
      ...u,
      email: demoEmail(u.role),
      phoneNumber: "",
      password: DEMO_PASSWORD,
      isActive: true,
      supplierId: null,
    });
    counts.users++;
  }
  return counts;
}

/** Seeds demo data when the database has no users and SEED is not `none`. */
export async function seedIfEmpty(deps: Deps): Promise<Record<string, number> | null> {
  if (deps.env.SEED === "none") return null;
  const any = await deps.db.selectFrom("users").select("id").limit(1).executeTakeFirst();
  if (any) return null;
  return await seedDemo(deps);
}
