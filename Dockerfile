# The tuition-centre site: one Node process serving the client, /api, /parse and
# /parse-dashboard. Give it an external PostgreSQL (DATABASE_URI) in production.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY domain/package.json domain/
COPY cloud/package.json cloud/
COPY server/package.json server/
COPY client/package.json client/
RUN npm ci
COPY . .
RUN npm run build

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=1337 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app /app
# /data/backups exists in the image so that a new volume mounted there belongs to node.
RUN mkdir -p /data/backups && chown -R node:node /data
USER node
EXPOSE 1337
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=5 \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--import", "tsx", "server/src/index.ts"]
