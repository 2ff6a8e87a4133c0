# The service as a container: `docker build -t ecds . && docker run -p 8787:8787 -v ecds-data:/data ecds`
# Stage 1 installs the runtime dependencies from the lockfile; stage 2 carries only what runs.
FROM node:22-bookworm-slim AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8787 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=dependencies /app/node_modules ./node_modules
COPY package.json ./
COPY bin ./bin
COPY src ./src
COPY skills ./skills
# the embedded store lives on a volume owned by the unprivileged user the service runs as
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8787
# liveness: /health is cheap and never touches an upstream beyond a cached eCFR probe
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# a larger young generation: fewer collections interrupting requests (docs/deployment.md#node)
ENTRYPOINT ["node", "--max-semi-space-size=64", "bin/ecds.mjs"]
CMD ["serve"]
