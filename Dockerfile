# CoalX in one image: the API and the built web app, started without any build (README "Deployment").
#   docker build -t coalx .
#   docker run -p 8080:8080 -v coalx-data:/data coalx                       # embedded database in /data
#   docker run -p 8080:8080 -e DATABASE_URL=postgres://… -e DEMO_DATA=1 coalx
ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: the web app (vite) and the server compiled to one file (apps/server/build.mjs)
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# the manifests first: the dependency layer is reused until they change
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/shared packages/shared
COPY apps/web apps/web
COPY apps/server apps/server
RUN npm run build && node apps/server/build.mjs

# ---- the server's production dependencies only (no vite, React or test tools)
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --omit=dev --no-audit --no-fund --workspace=apps/server --workspace=packages/shared

# ---- runtime
FROM ${NODE_IMAGE}
# pg_dump / pg_restore 15 for `npm run backup` / `restore` against the database server
RUN apt-get update \
  && apt-get install -y --no-install-recommends postgresql-client-15 \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=8080 \
    SKIP_WEB_BUILD=1 \
    SKIP_SERVER_BUILD=1
COPY --from=deps /app/node_modules node_modules
COPY package.json package-lock.json tsconfig.base.json ./
COPY packages/shared packages/shared
# sources and scripts stay for the maintenance commands (db:export, backup, audit:verify run them through tsx)
COPY apps/server/package.json apps/server/tsconfig.json apps/server/build.mjs apps/server/
COPY apps/server/migrations apps/server/migrations
COPY apps/server/src apps/server/src
COPY scripts scripts
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/web/dist apps/web/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
# /trade-api/health answers 200 while the database answers
HEALTHCHECK --interval=15s --timeout=5s --start-period=300s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/trade-api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# the compiled server directly: npm start would compare source and build times and could compile again
CMD ["node", "apps/server/dist/main.mjs"]
