# syntax=docker/dockerfile:1
# paylink's image: built with the development dependencies, run with the production ones only
# (docs/deploy.md, "Container"). tests/process/container.test.ts runs the runtime stage's steps
# outside a container, so keep each step a plain COPY, ENV or RUN line.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# dist is a symbolic link to the build (scripts/build.mjs): the runtime stage gets a plain directory.
RUN npm run build && cp -rL dist /tmp/dist && rm -rf dist && mv /tmp/dist dist

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
ENV HOST=0.0.0.0
ENV PORT=4321
ENV PAYLINK_DATA_DIR=/var/lib/paylink
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY bin ./bin
COPY scripts ./scripts
COPY src ./src
COPY drizzle ./drizzle
COPY --from=build /app/dist ./dist
# The build is newer than every source it came from, so a start never tries to build again.
RUN touch dist/paylink/.built
RUN groupadd --system paylink && useradd --system --gid paylink --home-dir /var/lib/paylink --shell /usr/sbin/nologin paylink && mkdir -p /var/lib/paylink && chown paylink:paylink /var/lib/paylink && chmod 0700 /var/lib/paylink
USER paylink
VOLUME /var/lib/paylink
EXPOSE 4321
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||4321)+'/healthz').then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The server itself, not npm: SIGTERM reaches it and it drains and exits 0 (bin/paylink).
ENTRYPOINT ["/app/bin/paylink"]
