# Gatehouse as a container image: `docker build -t gatehouse .`, then `docker run gatehouse serve` (or `migrate`,
# `seed`, `app create …`: the image's entrypoint is the `gatehouse` command). See docs/deployment.md.

# Build stage: the TypeScript compiler and Vite are dev dependencies, so this stage installs everything and compiles
# src/ into dist/ and the console into console/dist. Scripts are skipped during the install (`prepare` would build
# before the sources are copied) and the build runs explicitly once they are, so a change in src/ does not reinstall
# the dependencies.
FROM node:20-slim AS build
WORKDIR /app
# The console is an npm workspace of its own: its package.json is part of the install.
COPY package.json package-lock.json ./
COPY console/package.json ./console/
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY console ./console
COPY scripts/build.mjs scripts/build-console.mjs ./scripts/
RUN npm run build

# Runtime stage: production dependencies only, the compiled code and the launcher; nothing of it writable by the
# process, which runs as the image's unprivileged `node` user.
FROM node:20-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
COPY console/package.json ./console/
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
# The admin console's built files (served at /console/ when SVC_CONSOLE_ENABLED is on).
COPY --from=build /app/console/dist ./console/dist
COPY bin ./bin
# Only used without SVC_DATABASE_URL (the embedded database): mount a volume here to keep it.
RUN mkdir -p /var/lib/gatehouse && chown node:node /var/lib/gatehouse
USER node
# Listen on every interface of the container; the port is only reachable where it is published or networked.
ENV SVC_HOST=0.0.0.0 \
    SVC_PORT=8000 \
    SVC_DATA_DIR=/var/lib/gatehouse
EXPOSE 8000
# The slim image has no curl: Node's fetch asks for readiness (database reachable, no migration pending).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.SVC_PORT || process.env.PORT || 8000}/health/ready`, { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Exec form: node is the container's main process and receives SIGTERM itself, so `serve` drains in-flight requests.
ENTRYPOINT ["node", "bin/gatehouse.js"]
CMD ["serve"]
