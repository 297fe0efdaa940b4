import { useEffect } from "react";
import { Outlet, useLocation, useMatches } from "react-router";

type Handle = { title?: string } | undefined;

/** Scrolls to the top on every route change and keeps the document title in step with the screen. */
export function RootLayout() {
  const { pathname } = useLocation();
  const matches = useMatches();
  const title = [...matches].reverse().map((m) => (m.handle as Handle)?.title).find(Boolean);

  useEffect(() => {
    globalThis.scrollTo(0, 0);
  }, [pathname]);

  useEffect(() => {
    document.title = title ? `${title} · Samplex` : "Samplex";
  }, [title]);

  return <Outlet />;
}
