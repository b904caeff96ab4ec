# The tuition-centre site: one Node process serving the client, /api, /parse and
# /parse-dashboard. Give it an external PostgreSQL (DATABASE_URI) in production.
# It runs the compiled JavaScript with the run-time dependencies only
# (docs/decisions/0012-compiled-production.md).
FROM node:20-bookworm-slim AS base
# The npm the lockfile is made with (npm 11, not the image's npm 10). npm 11 reads package.json's
# allowScripts only as advice: it still runs every install script and warns of those not listed;
# npm 12 will run only the approved ones.
RUN npm install -g npm@11.19.1
WORKDIR /app
COPY package.json package-lock.json ./
COPY domain/package.json domain/
COPY cloud/package.json cloud/
COPY server/package.json server/
COPY client/package.json client/

# Everything, devDependencies included: tsc compiles domain/, cloud/ and server/ into
# their dist/ folders, Vite builds and pre-renders the client.
FROM base AS build
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# The server's dependencies and the root's, without devDependencies and without the
# client's (it is served built); then the build's output only.
FROM base AS runtime
RUN npm ci --omit=dev --workspace server --include-workspace-root --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/domain/dist domain/dist
COPY --from=build /app/cloud/dist cloud/dist
COPY --from=build /app/server/dist server/dist
COPY --from=build /app/client/dist client/dist
# The workspaces' package.json send `@tc/...` imports to dist/ under the `compiled`
# condition (src/*.ts otherwise); set for every node the image runs (backup, restore too).
ENV NODE_ENV=production PORT=1337 DATA_DIR=/data NODE_OPTIONS=--conditions=compiled
# /data/backups exists in the image so that a new volume mounted there belongs to node.
RUN mkdir -p /data/backups && chown -R node:node /data
USER node
EXPOSE 1337
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=5 \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "server/dist/index.js"]
