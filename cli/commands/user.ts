/** `user add`, `user passwd`: the users domain with the shared schemas, audited as the CLI. */
import type { Command } from "commander";
import { UserCreate } from "../../shared/schemas/user.ts";
import { LoginBody } from "../../shared/schemas/auth.ts";
import { isRole, ROLES } from "../../shared/roles.ts";
import { createUser, setPassword } from "../../server/domain/users/users.ts";
import { cliActor } from "../../server/domain/audit/log.ts";
import { supplierExists } from "../../server/domain/suppliers/lookup.ts";
import { DomainError, isNotFound } from "../../server/domain/errors.ts";
import { CliError, parseInput, say, withDeps } from "../context.ts";

const OPTION_OF: Record<string, string> = {
  firstName: "--first",
  lastName: "--last",
  email: "--email",
  password: "--password",
  role: "--role",
  supplierId: "--supplier",
  phoneNumber: "--phone",
};

/** "jane.doe@x.com" -> Jane / Doe; names are only guessed when --first / --last are not given. */
function namesFromEmail(email: string): [string, string] {
  const local = email.split("@")[0]?.split("+")[0] ?? "";
  const parts = local.split(/[._-]+/).filter(Boolean).map((p) => p[0].toUpperCase() + p.slice(1));
  return [parts[0] ?? "", parts.slice(1).join(" ") || "User"];
}

/** When the first name was guessed from the e-mail and is refused, say how to give one. */
function parseFirstNameHinted<T>(guessed: boolean, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (guessed && e instanceof CliError && e.message.startsWith("--first:")) {
      throw new CliError(`${e.message} (the e-mail gives no first name of 4 letters or more: pass --first)`);
    }
    throw e;
  }
}

type AddOptions = {
  email: string;
  password: string;
  role: string;
  first?: string;
  last?: string;
  supplier?: string;
  phone?: string;
};

export function registerUserCommands(program: Command) {
  const user = program.command("user").description("users: add one, change a password");

  user.command("add")
    .description("add a user (staff, or SUPPLIER with --supplier)")
    .requiredOption("--email <email>", "sign-in e-mail")
    .requiredOption("--password <password>", "at least 7 characters")
    .requiredOption("--role <role>", ROLES.join(" | "))
    .option("--first <name>", "first name (at least 4 characters; default from the e-mail)")
    .option("--last <name>", "last name (default from the e-mail, else User)")
    .option("--supplier <id>", "supplier id, required for role SUPPLIER")
    .option("--phone <number>", "phone number")
    .action(async (o: AddOptions) => {
      const role = o.role.trim().toUpperCase();
      if (!isRole(role)) {
        throw new CliError(`--role: unknown role "${o.role}"; use one of ${ROLES.join(", ")}`);
      }
      if (o.supplier && role !== "SUPPLIER") {
        throw new CliError("--supplier: only a user with role SUPPLIER belongs to a supplier");
      }
      const [first, last] = namesFromEmail(o.email);
      const input = parseFirstNameHinted(o.first === undefined, () =>
        parseInput(
          UserCreate,
          {
            firstName: o.first ?? first,
            lastName: o.last ?? last,
            email: o.email,
            password: o.password,
            role,
            supplierId: o.supplier ?? null,
            phoneNumber: o.phone ?? "",
            isActive: true,
          },
          OPTION_OF,
          ["email", "password"],
        ));
      await withDeps(async (deps) => {
        // the same check as the server's: a supplier login belongs to a live supplier
        const liveSupplier = async (db: typeof deps.db, id: string) => {
          try {
            await supplierExists(db, id);
          } catch (e) {
            if (e instanceof DomainError) throw new CliError(`--supplier: no live supplier has the id ${id}`);
            throw e;
          }
        };
        const u = await createUser({ db: deps.db, actor: cliActor(), now: deps.now }, input, liveSupplier);
        say(`Added ${u.role} ${u.fullName} <${u.email}> (id ${u._id})`);
      });
    });

  user.command("passwd")
    .description("set a user's password")
    .requiredOption("--email <email>", "the user's e-mail")
    .requiredOption("--password <password>", "the new password, at least 7 characters")
    .action(async (o: { email: string; password: string }) => {
      const input = parseInput(LoginBody, { email: o.email, password: o.password }, OPTION_OF);
      await withDeps(async (deps) => {
        try {
          await setPassword({ db: deps.db, actor: cliActor(), now: deps.now }, {
            email: input.email,
            password: input.password,
          });
        } catch (e) {
          if (isNotFound(e)) {
            throw new CliError(`No user with e-mail ${input.email}`);
          }
          throw e;
        }
        say(`Password changed for ${input.email.toLowerCase()}`);
      });
    });
}
