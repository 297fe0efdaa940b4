import { Link } from "react-router";
import { MSG } from "../../../shared/messages.ts";
import { buttonVariants } from "../components/ui/button.tsx";
import { Logo } from "../components/layout/Logo.tsx";

/** /404, /survey/* and any unknown path (part 1, 2.1). */
export function NotFoundPage() {
  return (
    <main className="flex min-h-svh flex-col items-center justify-center gap-6 px-6 py-16 text-center">
      <Logo />
      <p className="text-7xl font-bold tracking-tight text-primary/20 select-none" aria-hidden="true">404</p>
      <div className="flex max-w-md flex-col gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{MSG.notFoundTitle}</h1>
        <p className="text-muted-foreground">{MSG.notFoundText}</p>
      </div>
      <Link to="/" className={buttonVariants()}>Go to Home</Link>
    </main>
  );
}
