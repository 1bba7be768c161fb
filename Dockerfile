# syntax=docker/dockerfile:1
# Multi-stage build: a static recordsbot binary on a distroless, non-root base.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/recordsbot ./cmd/recordsbot

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/recordsbot /recordsbot
USER 65532:65532
ENV PORT=3000
EXPOSE 3000
# No shell in the image: the binary probes itself (GET /healthz on $PORT).
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s --retries=3 CMD ["/recordsbot", "healthcheck"]
ENTRYPOINT ["/recordsbot"]
CMD ["serve"]
