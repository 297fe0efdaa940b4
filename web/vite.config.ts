/** Vite 8 under Deno: `deno task build` writes web/dist, served by server/app.ts at "/". */
import { defineConfig } from "vite";
import tailwindcss from "@tailwindcss/vite";

const webDir = new URL(".", import.meta.url).pathname;

export default defineConfig({
  root: webDir,
  base: "/",
  publicDir: "public",
  plugins: [tailwindcss()],
  oxc: {
    jsx: { runtime: "automatic", importSource: "react" },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      output: {
        // Vendor groups by purpose, so the sign-in page does not download what only lists and
        // dialogs need (see tests/bench/web_size.ts).
        codeSplitting: {
          groups: [
            { name: "vendor-query", test: /node_modules[\\/].*@tanstack[\\/](query-core|react-query)/ },
            {
              name: "vendor-table",
              test: /node_modules[\\/].*@tanstack[\\/](table-core|react-table|store|react-store)[\\/]/,
            },
            { name: "vendor-form", test: /node_modules[\\/].*(react-hook-form|@hookform|valibot)[\\/]/ },
            {
              name: "vendor-overlay",
              test:
                /node_modules[\\/].*(@radix-ui[\\/]react-(dialog|alert-dialog|dropdown-menu|menu|popover|popper|select|focus-scope|focus-guards|dismissable-layer|portal|roving-focus|collection|arrow|visually-hidden|use-size|use-previous|number)|@floating-ui|react-remove-scroll|aria-hidden|use-sidecar|use-callback-ref|react-style-singleton|get-nonce|detect-node-es|tslib)[\\/]/,
            },
          ],
        },
      },
      onwarn(warning, warn) {
        // radix and sonner ship "use client" banners meant for server components; harmless here
        if (warning.code === "MODULE_LEVEL_DIRECTIVE") return;
        warn(warning);
      },
    },
  },
  server: { port: 5173, proxy: { "/api": "http://localhost:8000" } },
});
