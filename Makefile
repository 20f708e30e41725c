# chainplan — make demo | make test | make bench | make fuzz
SWIFT      ?= swift
CONFIG     ?= debug
BIN        := .build/$(CONFIG)/chainplan
# python3-jsonschema: the tests validate SARIF output against the official schema with it;
# sqlite3 and python3: the store tests hold locks and run child processes with them.
APT_PKGS   := libsqlite3-dev sqlite3 libgraphviz-dev graphviz pkg-config python3 python3-jsonschema python3-venv
GROUP      ?= all
# make install [PREFIX=/usr/local] [DESTDIR=] [INSTALL_CONFIG=release]: no apt, so it works on macOS too.
PREFIX     ?= /usr/local
DESTDIR    ?=
INSTALL_CONFIG ?= release
# Release builds on Linux link Swift's runtime and Foundation into the binary (--static-swift-stdlib):
# the dynamic loader no longer resolves ~20 Swift libraries at every start (Benchmarks/RESULTS.md,
# "chainplan graph … against dot -Tsvg"). Graphviz, SQLite and libxml2 stay shared system libraries.
# The flag changes the compile flags too, so switching it rebuilds .build/release. STATIC_STDLIB= turns it off.
# Release builds build the chainplan product only: the static resource directory has no Testing module,
# which Tests/ChainPlanTestSupport (a plain target) imports.
# The toolchain links a static-stdlib executable with --export-dynamic, exporting its ~20,000 Swift
# symbols: nothing loads against them, and each start paid for them (the backtracer's start-up
# dladdr scans them all, 0.4 ms; every library's symbol look-ups try the executable first).
# --no-export-dynamic leaves them in the file's own symbol table (.symtab), which debuggers read.
STATIC_STDLIB ?= $(if $(filter Linux,$(shell uname -s)),--static-swift-stdlib -Xlinker --no-export-dynamic,)
release_flags = $(if $(filter release,$(1)),$(STATIC_STDLIB) --product chainplan,)

.PHONY: all deps lint-tools bench-deps screenshot-deps screenshot build release install uninstall test demo bench bench-check fuzz clean

all: build

# Installs the system packages chainplan builds against, when missing.
deps:
	@missing=""; for p in $(APT_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then echo "Installing$$missing"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  elif command -v sudo >/dev/null 2>&1; then echo "Installing$$missing (sudo)"; sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else echo "Missing system packages. Run: apt-get install -y$$missing"; exit 1; fi; \
	fi

# make screenshot [SCREENSHOT_SPEC=…] [SCREENSHOT_OUT=Docs/images/report-woocommerce.png]: renders the HTML
# report of a long history (the corpus's WooCommerce, 117 versions) and photographs it in headless
# Chromium at 1400 px wide, to check the layout in a real browser. Installs chromium like `make deps`.
SCREENSHOT_APT  := chromium
SCREENSHOT_SPEC ?= ../shared/corpus/woocommerce__woocommerce-ios/Storage/Storage/Model/WooCommerce.xcdatamodeld
SCREENSHOT_OUT  ?= Docs/images/report-woocommerce.png
SCREENSHOT_HEIGHT ?= 2400
screenshot-deps:
	@missing=""; for p in $(SCREENSHOT_APT); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then echo "Installing$$missing"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  elif command -v sudo >/dev/null 2>&1; then echo "Installing$$missing (sudo)"; sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else echo "Missing system packages. Run: apt-get install -y$$missing"; exit 1; fi; \
	fi

screenshot: screenshot-deps build
	@mkdir -p .build/screenshot
	-$(BIN) report "$(SCREENSHOT_SPEC)" -o .build/screenshot/report.html
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,$(SCREENSHOT_HEIGHT) \
	  --screenshot="$(CURDIR)/$(SCREENSHOT_OUT)" "file://$(CURDIR)/.build/screenshot/report.html" 2>/dev/null
	@echo "wrote $(SCREENSHOT_OUT)"

build: deps
	$(SWIFT) build -c $(CONFIG) $(call release_flags,$(CONFIG))

release:
	$(MAKE) build CONFIG=release

# Builds chainplan and copies it to $(DESTDIR)$(PREFIX)/bin (Graphviz from apt or Homebrew must be installed).
install:
	$(SWIFT) build -c $(INSTALL_CONFIG) $(call release_flags,$(INSTALL_CONFIG)) $(if $(filter release,$(INSTALL_CONFIG)),,--product chainplan)
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 0755 "$$($(SWIFT) build -c $(INSTALL_CONFIG) $(call release_flags,$(INSTALL_CONFIG)) --show-bin-path)/chainplan" "$(DESTDIR)$(PREFIX)/bin/chainplan"
	@echo "installed $(DESTDIR)$(PREFIX)/bin/chainplan"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/chainplan"

# zizmor (PyPI), for the test that lints action.yml and the documented workflows; best effort:
# where PyPI cannot be reached the test says it is skipped.
LINT_VENV := .build/lint
lint-tools:
	@[ -x $(LINT_VENV)/bin/zizmor ] || { python3 -m venv $(LINT_VENV) && $(LINT_VENV)/bin/pip install -q zizmor; } >/dev/null 2>&1 \
	  || echo "zizmor could not be installed: the Action's lint test will be skipped"

test: deps lint-tools
	$(SWIFT) test

demo: build
	@bash Chains/demo.sh $(BIN)

# The peers the benchmarks compare with, installed as their users would: apt and pip (in a venv).
BENCH_APT := graphviz libxml2-utils sqlite3 python3-venv
bench-deps: deps
	@missing=""; for p in $(BENCH_APT); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then echo "Installing$$missing"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else echo "Missing system packages. Run: apt-get install -y$$missing"; exit 1; fi; \
	fi
	@[ -x .build/bench/venv/bin/python ] || python3 -m venv .build/bench/venv
	@.build/bench/venv/bin/python -c 'import alembic' 2>/dev/null || .build/bench/venv/bin/pip install -q alembic

# make bench [GROUP=budgets|history|swiftdata|chains|corpus|classify|deferred|graph|dryrun|version] [BENCH_RUNS=5]
bench: bench-deps
	$(MAKE) release
	python3 Benchmarks/bench.py $(GROUP)

bench-check:
	@python3 Benchmarks/check.py Benchmarks/results.json

# make fuzz [TARGETS="spec model"] [FUZZ_RUNS=1000000] [FUZZ_SECONDS=900] [FUZZ_JOBS=2] [FUZZ_ASAN=1]:
# libFuzzer on the spec, model, mapping-model, keyed-archive, store-plist readers, inference and the
# escaping (Fuzz/): 1,000,000 runs per target (each capped at 900 s), in a coverage-only build, then
# everything it kept replayed under AddressSanitizer. About 45 min on an idle 2-core machine (every
# target reaches 1,000,000 runs), plus two release builds (~10 min each the first time); Fuzz/README.md, "Stop 29".
TARGETS ?=
fuzz: deps
	python3 Fuzz/fuzz.py $(TARGETS)

clean:
	rm -rf .build
