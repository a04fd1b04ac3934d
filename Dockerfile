# syntax=docker/dockerfile:1
#
# One static schedfarm binary, the shipped specs and traces, run as a
# non-root user. The same image is the coordinator and the workers:
#
#   docker build --build-arg REVISION=$(git rev-parse HEAD) -t schedfarm .
#   docker run --rm -v sf-data:/data schedfarm run /app/specs/quickstart.yaml
#
# See deploy/ for a compose file with a NATS server, a coordinator and
# scaled workers.

FROM golang:1.26 AS build
WORKDIR /src
# Dependencies first, so code changes do not download them again.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
# The commit, which `schedfarm version` and the outputs' provenance name:
# .git is not sent to the build (.dockerignore), so Go cannot stamp it.
ARG REVISION=
RUN [ -n "${REVISION}" ] || echo "REVISION not given: the version will not name the commit (docker build --build-arg REVISION=\$(git rev-parse HEAD) ...)" >&2; \
    CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION} -X main.revision=${REVISION}" \
        -o /out/schedfarm ./cmd/schedfarm \
    && /out/schedfarm --version \
    && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
# Specs find the shipped traces in the traces/ directory next to specs/.
COPY --from=build /out/schedfarm /app/schedfarm
COPY specs/ /app/specs/
COPY traces/ /app/traces/
# The working directory /data holds the default state dir (.schedfarm:
# results, task states, the embedded NATS store), the default outputs
# (out/<sweep>) and the workers' trace cache: mount a volume there.
COPY --from=build --chown=65532:65532 /out/data /data
ENV SCHEDFARM_CACHE=/data/cache
USER 65532:65532
WORKDIR /data
VOLUME ["/data"]
ENTRYPOINT ["/app/schedfarm"]
CMD ["--help"]
