# FrameSeek: `make demo` and `make test` are the two commands a fresh Debian 12 machine needs.
SWIFT ?= swift

.PHONY: deps build demo test test-tsan test-asan docs lint fuzz fixtures bench-compare clean

deps:
	@scripts/install-deps.sh

# The Swift runtime and Foundation linked in statically: a self-contained binary that starts
# 10 to 15 ms sooner (fewer shared objects to load and relocate), which every whole-process
# measurement in the README counts.
build: deps
	$(SWIFT) build -c release --static-swift-stdlib --product frameseek
	$(SWIFT) build -c release --static-swift-stdlib --product frameseek-player-example

demo: build
	@scripts/demo.sh

# The tests' index cache is a folder of their own, new each run: the command line keeps frame
# tables in $XDG_CACHE_HOME, and a run must neither read an earlier build's nor leave its own.
TEST_CACHE = XDG_CACHE_HOME=$(CURDIR)/.build/test-cache

# The three runs start the same ffmpeg and ffprobe commands on the same bytes: scripts/memo
# answers a command it has seen from what FFmpeg printed and wrote the first time (its header
# says which commands it keeps). The folder is named for the FFmpeg that answered, the system's
# packages (the encoders FFmpeg loads among them) and the script's rules.
FFMPEG_MEMO = PATH="$(CURDIR)/scripts/memo:$$PATH" \
	FRAMESEEK_FFMPEG_MEMO="$(CURDIR)/.build/ffmpeg-memo/$$( { /usr/bin/ffmpeg -version; /usr/bin/ffprobe -version; \
		dpkg-query -W 2>/dev/null; cat $(CURDIR)/scripts/memo/ffmpeg; } | sha256sum | cut -c1-16)"

# A passing run prints the test runner's lines and nothing else: FFmpeg's log is shown only for a
# failing test. scripts/quiet-test.sh fails a passing run whose output holds a line of it.
test: deps
	rm -rf .build/test-cache
	$(TEST_CACHE) $(FFMPEG_MEMO) scripts/quiet-test.sh $(SWIFT) test

# A build directory of its own, so switching between the two builds never reuses stale objects.
test-tsan: deps
	rm -rf .build/test-cache
	$(TEST_CACHE) $(FFMPEG_MEMO) scripts/quiet-test.sh $(SWIFT) test --sanitize=thread --scratch-path .build-tsan

# AddressSanitizer (LeakSanitizer included), decoder threads at 1 as by default. Leaks that are
# FFmpeg's or the Swift runtime's own are suppressed in scripts/lsan.supp, each with its reason.
test-asan: deps
	rm -rf .build/test-cache
	$(TEST_CACHE) $(FFMPEG_MEMO) ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp \
		scripts/quiet-test.sh $(SWIFT) test --sanitize=address --scratch-path .build-asan

# The DocC site of every public module in .build/docs-site/, built with warnings as errors, then
# rendered in headless Chromium (scripts/check-docs.sh): the landing page must show.
docs: deps
	scripts/make-docs.sh
	scripts/check-docs.sh

# The house style (.swift-format: 4 spaces, 140 columns), checked with every finding an error.
# `swift format format -i -r Sources Tests` applies it. Then the import graph: no file imports a
# module its target does not depend on (scripts/check-imports.py, which also lists the files
# outside the FFmpeg bindings that import CFFmpeg).
lint:
	$(SWIFT) format lint --strict -r Sources Tests
	scripts/check-imports.py

# libFuzzer: make fuzz FUZZ_TARGET=media|parsing|playlists|mp4file|index-cache|landing|ranged-http
# FUZZ_SECONDS=N (see scripts/fuzz.sh); scripts/fuzz-ci.sh runs every target for a bounded time.
FUZZ_TARGET ?= media
FUZZ_SECONDS ?= 60
fuzz: deps
	scripts/fuzz.sh $(FUZZ_TARGET) $(FUZZ_SECONDS)

# Side by side against an earlier commit (scripts/bench-compare.py): BASE built in a worktree,
# the random, scrub, sample, sequential and long workloads run alternately on both builds for
# ROUNDS rounds; each ratio with its spread, and the ones that moved beyond it.
ROUNDS ?= 3
bench-compare: deps
	@test -n "$(BASE)" || { echo "usage: make bench-compare BASE=<commit> [ROUNDS=3]" >&2; exit 2; }
	scripts/bench-compare.py $(BASE) --rounds $(ROUNDS)

# Rebuilds the synthetic encodes and the ffprobe/framemd5 oracles (needs the ffmpeg CLI).
fixtures:
	Fixtures/make-fixtures.sh

clean:
	rm -rf .build .build-tsan .build-asan .build-fuzz out .build/docs-site
