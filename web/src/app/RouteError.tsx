import * as React from "react";
import { isRouteErrorResponse, useLocation, useNavigate, useNavigation, useRouteError } from "react-router";
import { RotateCw, TriangleAlert, WifiOff } from "lucide-react";
import { Button } from "../components/ui/button.tsx";
import { Spinner } from "../components/ui/spinner.tsx";
import { NotFoundPage } from "./NotFoundPage.tsx";
import { type ChunkFailure, explainChunkFailure, isChunkLoadError } from "./chunk-errors.ts";

/**
 * Last-resort error page: a 404 response shows the not-found page. A screen whose code could not
 * be loaded is told apart: Samplex unreachable (Try again repeats the navigation, also done by
 * itself when the browser comes back online) or a new version published (Reload). Anything else
 * offers a reload.
 */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  if (isChunkLoadError(error)) return <ChunkError error={error} />;
  return (
    <ErrorPanel
      title="Something went wrong"
      text="This screen could not be shown. Reload the page; if it happens again, tell your administrator."
    >
      <Button onClick={() => globalThis.location.reload()}>Reload</Button>
    </ErrorPanel>
  );
}

function ChunkError({ error }: { error: unknown }) {
  const [cause, setCause] = React.useState<ChunkFailure | null>(null);
  const navigate = useNavigate();
  const location = useLocation();
  const navigation = useNavigation();

  // each new failure (a retry that failed too) is looked at again
  React.useEffect(() => {
    let live = true;
    setCause(null);
    void explainChunkFailure().then((c) => live && setCause(c));
    return () => {
      live = false;
    };
  }, [error]);

  const retry = React.useCallback(() => {
    navigate(`${location.pathname}${location.search}${location.hash}`, { replace: true });
  }, [navigate, location]);

  React.useEffect(() => {
    if (cause !== "unreachable") return;
    globalThis.addEventListener("online", retry);
    return () => globalThis.removeEventListener("online", retry);
  }, [cause, retry]);

  if (!cause) {
    return (
      <main className="flex min-h-svh items-center justify-center" aria-busy="true">
        <Spinner className="size-6 text-muted-foreground" label="Checking the connection" />
      </main>
    );
  }
  if (cause === "unreachable") {
    const retrying = navigation.state !== "idle";
    return (
      <ErrorPanel
        icon={<WifiOff className="size-10 text-muted-foreground" aria-hidden="true" />}
        title="No connection to Samplex"
        text="Samplex cannot be reached. Check your connection, then try again."
      >
        <Button onClick={retry} loading={retrying}>
          {retrying ? null : <RotateCw />} Try again
        </Button>
      </ErrorPanel>
    );
  }
  return (
    <ErrorPanel
      title="Samplex was updated"
      text="A new version of Samplex was published. Reload the page to continue."
    >
      <Button onClick={() => globalThis.location.reload()}>Reload</Button>
    </ErrorPanel>
  );
}

function ErrorPanel(
  { icon, title, text, children }: {
    icon?: React.ReactNode;
    title: string;
    text: string;
    children: React.ReactNode;
  },
) {
  return (
    <main className="flex min-h-svh flex-col items-center justify-center gap-4 px-6 text-center">
      {icon ?? <TriangleAlert className="size-10 text-destructive" aria-hidden="true" />}
      <h1 className="text-xl font-semibold">{title}</h1>
      <p className="max-w-md text-muted-foreground" role="alert">{text}</p>
      {children}
    </main>
  );
}
