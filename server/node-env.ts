/**
 * Imported first by the server's entry points (main.ts, start.ts), before any npm package: React's
 * server renderer (the respondent's pages, pages.tsx) picks its build from NODE_ENV when it is
 * loaded, and without it Deno loads the development build, which renders a pre-screen page about
 * eight times slower and only adds warnings nobody reads on a server. An explicit NODE_ENV wins.
 */
if (!Deno.env.get("NODE_ENV")) Deno.env.set("NODE_ENV", "production");
