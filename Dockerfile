# syntax=docker/dockerfile:1
# Multi-stage build: a static recordsbot binary on a distroless, non-root base.
#
#   docker build --build-arg VERSION=0.9.0 -t recordsbot:0.9.0 .
#   docker run -p 3000:3000 --env-file .env -v recordsbot-data:/var/lib/recordsbot recordsbot:0.9.0
#
# The Go release is pinned to one with the standard library's security
# fixes (issue 21); go.mod's own minimum stays at Go 1.26.
FROM golang:1.27.3-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/recordsbot ./cmd/recordsbot
# The data directory, made here because the final image has no shell. It
# must exist in the image, owned by the user below: Docker fills a new named
# volume from the image's directory, ownership included, where otherwise it
# would create it owned by root and SQLite could not write there.
RUN mkdir -p /out/data && chmod 0750 /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/recordsbot /recordsbot
COPY --from=build --chown=65532:65532 /out/data /var/lib/recordsbot
USER 65532:65532
ENV PORT=3000
# SQLite in the data directory unless DATABASE_URL says otherwise (several
# replicas share a PostgreSQL instead: docs/running-at-scale.md).
ENV DATABASE_URL=sqlite:///var/lib/recordsbot/recordsbot.db
VOLUME ["/var/lib/recordsbot"]
# Only PORT: the metrics listener (METRICS_ADDR, :9090) is left out so that
# `docker run -P` never publishes it; scrape it from inside your network.
EXPOSE 3000
# No shell in the image: the binary probes itself (GET /healthz on $PORT).
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s --retries=3 CMD ["/recordsbot", "healthcheck"]
ENTRYPOINT ["/recordsbot"]
CMD ["serve"]
