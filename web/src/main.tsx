import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router/dom";
import { createAppRouter } from "./app/router.tsx";
import { setNavigator } from "./lib/navigation.ts";
import { Notifications } from "./components/layout/Notifications.tsx";

const router = createAppRouter();
setNavigator((to, opts) => void router.navigate(to, opts));

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <RouterProvider router={router} />
    <Notifications />
  </StrictMode>,
);
