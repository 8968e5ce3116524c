# FrameSeek: `make demo` and `make test` are the two commands a fresh Debian 12 machine needs.
SWIFT ?= swift

.PHONY: deps build demo test test-tsan fixtures clean

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release --product frameseek
	$(SWIFT) build -c release --product frameseek-player-example

demo: build
	@scripts/demo.sh

test: deps
	$(SWIFT) test

# A build directory of its own, so switching between the two builds never reuses stale objects.
test-tsan: deps
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan

# Rebuilds the synthetic encodes and the ffprobe/framemd5 oracles (needs the ffmpeg CLI).
fixtures:
	Fixtures/make-fixtures.sh

clean:
	rm -rf .build .build-tsan out
