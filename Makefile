# lexio — make run starts the demo, make test runs the whole suite.
GO      ?= go
BIN     ?= bin/lexio
PKGS    ?= ./...
FUZZTIME ?= 20s
STATICCHECK ?= v0.8.2

.PHONY: all deps run test test-integration bench fuzz lint build clean

all: build

deps:
	@bash scripts/deps.sh

build: deps
	CGO_ENABLED=0 $(GO) build -o $(BIN) ./cmd/lexio

run: build
	$(BIN) demo

# SQLite (modernc.org's, C translated to Go) runs under -race as C under cgo
# would: uninstrumented and without checkptr. Every test that writes the
# store costs about 40 % less CPU; our code is instrumented as before.
RACEFLAGS ?= -race -gcflags='modernc.org/...=-race=false -d=checkptr=0'

# The tests' files (SQLite databases, mail directories) go to memory where
# the machine has a tmpfs at /dev/shm: their fsyncs otherwise cost the
# suite about a tenth of its time, and no test can see whether one reached
# a disk.
TESTTMP ?= $(shell [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm/lexio-test)

# The pure leaves' own tests (rules, move generation, the computer,
# parser: one goroutine, no shared state) run without the race detector,
# which can find nothing there and makes their property tests five times
# slower; every other package's run with it, and the leaves' code is
# instrumented in those.
PURE = ./engine/... ./movegen/ ./bot/ ./analysis/ ./gcg/ ./league/ ./rating/ ./parser/... ./clock/
PUREPKGS = $(filter $(shell $(GO) list $(PURE)),$(shell $(GO) list $(PKGS)))
RACEPKGS = $(filter-out $(PUREPKGS),$(shell $(GO) list $(PKGS)))

# The store's suite runs on SQLite always and on a throwaway PostgreSQL
# (installed from apt when missing) when one can be started; under CI it
# must start.
test:
	@bash scripts/deps.sh test
	$(GO) vet $(PKGS)
	@dsn=$$(bash scripts/postgres.sh start) || { \
	  if [ -n "$$CI" ]; then echo "make test: PostgreSQL did not start (see above)" >&2; exit 1; fi; \
	  echo "make test: no PostgreSQL here; the store's PostgreSQL tests will be skipped" >&2; dsn=; }; \
	tmp=$${TMPDIR:-/tmp}; if [ -n "$(TESTTMP)" ]; then mkdir -p "$(TESTTMP)" && tmp="$(TESTTMP)"; fi; \
	rc=0; export TMPDIR="$$tmp" LEXIO_TEST_POSTGRES_DSN="$$dsn"; \
	$(if $(PUREPKGS),$(GO) test -shuffle=on -count=1 -timeout 25m $(PUREPKGS) || rc=$$?;) \
	$(if $(RACEPKGS),$(GO) test $(RACEFLAGS) -shuffle=on -count=1 -timeout 25m $(RACEPKGS) || rc=$$?;) \
	if [ -n "$$dsn" ]; then bash scripts/postgres.sh stop; fi; \
	if [ -n "$(TESTTMP)" ]; then rm -rf "$(TESTTMP)"; fi; \
	exit $$rc

# The real binary against a real Dovecot and Postfix on 127.0.0.1, which
# scripts/mailstack.sh installs (apt, as root), starts and stops.
test-integration: deps
	@bash scripts/mailstack.sh start
	@rc=0; $(GO) test -tags integration -count=1 -timeout 15m -v ./integration/ || rc=$$?; \
	bash scripts/mailstack.sh stop; exit $$rc

bench: deps
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

# Each fuzz target runs FUZZTIME; seeds live under testdata/fuzz.
fuzz: deps
	@set -e; for pkg in $$($(GO) list $(PKGS)); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt -l:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK) $(PKGS)

clean:
	rm -rf bin data
