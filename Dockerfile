# The claimcheck server image: one static binary on scratch, run as a
# non-root user; nothing else is in the image (no shell, no libc, no CA
# certificates: the server makes no outgoing connections).
#
# Build the binary first, then the image, from the repository's root:
#
#	CGO_ENABLED=0 go build -trimpath -ldflags=-s -o claimcheck ./cmd/claimcheck
#	docker build -t claimcheck .
#
# The image pulls no base image, so it builds offline. Run it with
#
#	docker run -p 8080:8080 claimcheck
FROM scratch
COPY claimcheck /claimcheck
# 65532 is the conventional "nonroot" uid/gid of distroless images.
USER 65532:65532
EXPOSE 8080
ENTRYPOINT ["/claimcheck"]
CMD ["serve", "-addr", ":8080"]
