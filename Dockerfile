# One image for the three Quern processes (api, projections, workers); docker-compose.yml picks
# the process with the command. Server code runs from TypeScript through tsx (no build step);
# only the web app is built.

# --- build: compilers are needed because better-sqlite3 may build its native addon from source.
FROM node:20-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# Manifests first, so the dependency layer is reused while only sources change.
COPY package.json package-lock.json ./
COPY core/package.json core/
COPY adapters/package.json adapters/
COPY projections/package.json projections/
COPY workers/package.json workers/
COPY api/package.json api/
COPY web/package.json web/
COPY test-support/package.json test-support/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# --- runtime: same base image (so the native addons match), no compilers, not root.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=3000 \
    HOST=0.0.0.0
WORKDIR /app
COPY --from=build --chown=node:node /app /app
# A named volume mounted on /data starts with this ownership, so the node user can write there.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
CMD ["npm", "run", "start:api"]
