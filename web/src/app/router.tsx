/** The route tree: public pages, the staff area (/admin) and the supplier portal (/supplier). */
import { createBrowserRouter, redirect, type RouteObject } from "react-router";
import { redirectIfSignedIn, requireScreen, requireSignedIn } from "./guards.ts";
import { screensUnder } from "./screens.ts";
import { RootLayout } from "./RootLayout.tsx";
import { RouteError } from "./RouteError.tsx";
import { NotFoundPage } from "./NotFoundPage.tsx";

function screenRoutes(prefix: "/admin" | "/supplier"): RouteObject[] {
  return screensUnder(prefix).map(({ path, def }) => ({
    path: path.slice(prefix.length + 1),
    loader: requireScreen,
    handle: { title: def.title, area: def.area, screen: path },
    lazy: async () => ({ Component: (await def.load()).default }),
  }));
}

const shell = async () => ({ Component: (await import("./AppShell.tsx")).AppShell });

export const routes: RouteObject[] = [
  {
    path: "/",
    Component: RootLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: () => null,
    children: [
      { index: true, loader: () => redirect("/login") },
      {
        path: "login",
        loader: redirectIfSignedIn,
        handle: { title: "Sign in" },
        lazy: async () => ({ Component: (await import("../features/auth/LoginPage.tsx")).default }),
      },
      { path: "404", Component: NotFoundPage, handle: { title: "Page not found" } },
      { path: "survey/*", Component: NotFoundPage, handle: { title: "Page not found" } },
      {
        path: "admin",
        loader: requireSignedIn,
        lazy: shell,
        children: [
          { index: true, loader: () => redirect("/admin/dashboard") },
          ...screenRoutes("/admin"),
          { path: "*", loader: () => redirect("/admin/dashboard") },
        ],
      },
      {
        path: "supplier",
        loader: requireSignedIn,
        lazy: shell,
        children: [
          { index: true, loader: () => redirect("/supplier/project") },
          ...screenRoutes("/supplier"),
          { path: "*", loader: () => redirect("/supplier/project") },
        ],
      },
      { path: "*", loader: () => redirect("/404") },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
