/** /login (part 1, 2.1): validation on change, sign-in at the click (no artificial wait), role landing. */
import { useNavigate } from "react-router";
import { LoginBody } from "../../../../shared/schemas/auth.ts";
import { MSG } from "../../../../shared/messages.ts";
import { Form, useSchemaForm } from "../../components/form/form.tsx";
import { CheckboxField, PasswordField, SubmitButton, TextField } from "../../components/form/fields.tsx";
import { Logo } from "../../components/layout/Logo.tsx";
import { landingPathFor } from "../../lib/auth.ts";
import { signIn } from "../../lib/session.ts";

export default function LoginPage() {
  const navigate = useNavigate();
  const form = useSchemaForm(LoginBody, { email: "", password: "", rememberMe: false });

  async function submit(values: LoginBody) {
    const admin = await signIn(values);
    navigate(landingPathFor(admin.role), { replace: true });
  }

  return (
    <div className="grid min-h-svh lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)]">
      <aside className="relative hidden overflow-hidden bg-[oklch(0.27_0.09_266)] p-10 text-white lg:flex lg:flex-col lg:justify-between">
        <Logo className="text-white" />
        <div className="relative z-10 flex max-w-md flex-col gap-4">
          <p className="text-3xl font-semibold leading-tight tracking-tight">
            Run projects, route respondents and settle accounts in one place.
          </p>
          <p className="text-white/70">
            The back-office of the Samplex sample exchange, for project managers, accounts and suppliers.
          </p>
        </div>
        <p className="relative z-10 text-xs text-white/80">© Samplex</p>
        <div
          aria-hidden="true"
          className="absolute -right-32 -top-32 size-[28rem] rounded-full bg-[oklch(0.49_0.2_264)] opacity-40 blur-3xl"
        />
        <div
          aria-hidden="true"
          className="absolute -bottom-40 -left-20 size-[24rem] rounded-full bg-[oklch(0.6_0.15_200)] opacity-25 blur-3xl"
        />
      </aside>
      <main className="flex items-center justify-center px-6 py-12">
        <div className="flex w-full max-w-sm flex-col gap-8">
          <Logo className="lg:hidden" />
          <div className="flex flex-col gap-1.5">
            <h1 className="text-2xl font-semibold tracking-tight">{MSG.signIn}</h1>
            <p className="text-muted-foreground">{MSG.signInSubtitle}</p>
          </div>
          <Form form={form} onSubmit={submit} className="flex flex-col gap-5">
            <TextField
              name="email"
              label="Email address"
              type="email"
              autoComplete="username"
              inputMode="email"
              autoFocus
            />
            <PasswordField name="password" label="Password" autoComplete="current-password" />
            <div className="flex items-center justify-between gap-4">
              <CheckboxField name="rememberMe" label="Remember me" />
              <a
                href="#"
                onClick={(e) => e.preventDefault()}
                className="rounded-sm text-sm font-medium text-primary hover:underline focus-visible:ring-2 focus-visible:ring-ring"
              >
                Forgot password?
              </a>
            </div>
            <SubmitButton size="lg" className="w-full">Login</SubmitButton>
          </Form>
        </div>
      </main>
    </div>
  );
}
