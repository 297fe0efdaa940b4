import { isRouteErrorResponse, useRouteError } from "react-router";
import { TriangleAlert } from "lucide-react";
import { Button } from "../components/ui/button.tsx";
import { NotFoundPage } from "./NotFoundPage.tsx";

/** Last-resort error page: a 404 response shows the not-found page, anything else offers a reload. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const chunkFailed = error instanceof Error && /dynamically imported module|Importing a module script/i.test(
    error.message,
  );
  return (
    <main className="flex min-h-svh flex-col items-center justify-center gap-4 px-6 text-center">
      <TriangleAlert className="size-10 text-destructive" aria-hidden="true" />
      <h1 className="text-xl font-semibold">Something went wrong</h1>
      <p className="max-w-md text-muted-foreground">
        {chunkFailed
          ? "A new version of Samplex was published. Reload the page to continue."
          : "This screen could not be shown. Reload the page; if it happens again, tell your administrator."}
      </p>
      <Button onClick={() => globalThis.location.reload()}>Reload</Button>
    </main>
  );
}
