# nms.overlay: build, test and demo targets.  `make help` lists them.
#
# Needs Python 3.13 (or 3.12), 3.11, pip, git and make: everything else is installed into virtualenvs
# (re-created only when their requirements file changes). .ci/python.sh finds each Python (PATH or pyenv).
#
# Support matrix (README "Requirements"): ansible-core 2.16 to 2.22 on Python 3.11 to 3.13.
#   .venv         the newest release: ansible-core 2.21 on Python 3.13 with all tooling (requirements-dev.txt)
#   .venv-oldest  the oldest: ansible-core 2.16 on Python 3.11 (requirements-oldest.txt)
#   .venv-next    the next: ansible-core 2.22 (its release candidate until it is out) on Python 3.13 (requirements-next.txt)
#   .build/matrix/<core>-py<python>  every other supported pair: a smoke run of every module (make matrix)

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory
# The stages' Pythons keep compiled files of what they import from files (the tests, the emulator, the collection as
# the unit and in-process tests import it), as a developer's machine does; a workplace that sets PYTHONDONTWRITEBYTECODE
# would have every pytest worker and emulator compile them again (make unit: 82 CPU s with it, 64 without). __pycache__
# is git-ignored; the build (ansible-galaxy leaves it out) and the sanity copy (git-listed files) never take it.
unexport PYTHONDONTWRITEBYTECODE

NEWEST_PYTHON_VERSION ?= 3.13
OLDEST_PYTHON_VERSION ?= 3.11
PYTHON   ?= $(shell .ci/python.sh $(NEWEST_PYTHON_VERSION) 2>/dev/null || .ci/python.sh 3.12)
VENV     ?= .venv
REQUIREMENTS ?= requirements-dev.txt
VPY      := $(abspath $(VENV))/bin/python
VBIN     := $(abspath $(VENV))/bin
STAMP    := $(VENV)/.requirements.txt
OLDEST_VENV ?= .venv-oldest
# ansible-core release:Python pairs run by `make matrix` (the full-suite pairs are not repeated here; the next
# ansible-core needs Python 3.13 or later, which its full-suite run already takes)
MATRIX ?= 2.16.19:3.12 2.17.14:3.11 2.17.14:3.12 2.18.19:3.11 2.18.19:3.12 2.18.19:3.13 \
          2.19.14:3.11 2.19.14:3.12 2.19.14:3.13 2.20.10:3.12 2.20.10:3.13 2.21.5:3.12
BUILD    := .build
# ansible-test needs a real .../ansible_collections/nms/overlay directory: see .ci/stage.py
SANITY_ROOT := $(abspath $(BUILD))/sanity
COLLECTION  := $(SANITY_ROOT)/ansible_collections/nms/overlay
# pytest-xdist: parallel workers (set PYTEST_XDIST= to run serially, e.g. when debugging). Four on the 2-core
# machine: the tests wait on servers, processes and settle loops much of the time, and two workers left a core idle
PYTEST_XDIST ?= -n 4
PYTEST_ARGS  ?=
SANITY_ARGS  ?=
LINT_ARGS    ?=
DEMO_DIALECT ?= netbird

.PHONY: help test check rehearse oldest next next-rc matrix venv unit integration real scenarios reliability stress sanity lint docs demo demo-kept bench build ee changelog clean eda eda-venv de certify certify-venv

help:
	@echo "make demo         start the API emulator, build the example network, enroll 3 simulated hosts, build again (changed=0), stop it"
	@echo "                  (DEMO_KEEP=1 make demo leaves the emulator running to explore; the last lines say how)"
	@echo "make test         unit + integration + reliability + sanity + lint + certify + docs + eda + demo on the newest ansible-core,"
	@echo "                  unit + integration + reliability + scenarios on the oldest and on the next (2.22), and the matrix smoke run"
	@echo "                  (what CI runs: .ci/run; two lanes taking the stages from one queue, .ci/stages.sh -j 2)"
	@echo "make rehearse     what CI does, on this machine: .ci/run in a fresh clone of HEAD (before a push; .ci/rehearse.sh)"
	@echo "make check        the quick loop: lint, unit tests, every module's scenario in process against the emulator (netbird)"
	@echo "make real         every module's scenario against the emulator and the real NetBird v0.27.6 and v0.77.1, the answers'"
	@echo "                  shapes compared, and the example playbooks and inventory against the real servers (NMS_REAL_SERVERS)"
	@echo "make scenarios    every module's scenario in process against the emulator only (NMS_GENERATIONS=v0.27 for one dialect)"
	@echo "make oldest       unit + integration + reliability on ansible-core 2.16 / Python 3.11 ($(OLDEST_VENV))"
	@echo "make next         unit + integration + reliability + scenarios on the next ansible-core (requirements-next.txt)"
	@echo "make next-rc      whether PyPI has an ansible-core newer than requirements-next.txt's (then raise its pin)"
	@echo "make matrix       every module on every other supported ansible-core / Python pair (MATRIX=...)"
	@echo "make venv         create/refresh .venv from requirements-dev.txt (skipped when unchanged)"
	@echo "make unit         pytest tests/unit"
	@echo "make integration  pytest tests/integration (ansible-playbook against the emulator, both dialects)"
	@echo "make reliability  pytest tests/reliability (bad input, bad answers, check mode, TLS, concurrency, permissions)"
	@echo "make stress       the reliability tests at full size (NMS_STRESS=1: more examples, more fault seeds)"
	@echo "make eda          the event source nms.overlay.audit_events against the emulator, and ansible-rulebook with the example"
	@echo "                  rulebooks against the emulator and the real v0.77.1 ($(EDA_VENV); needs Java 17+)"
	@echo "make docs         build the documentation site offline into $(BUILD)/docs (fails on any warning)"
	@echo "make sanity       ansible-test sanity (no ignore files) on a staged copy under $(BUILD)/"
	@echo "make lint         ansible-lint --profile production"
	@echo "make bench        the speed ratios of docs/performance.md, every module at S and the large cases at XL (about an hour)"
	@echo "make tables       write plugins/module_utils/_tables.py from the kinds' declarations (after changing a kind)"
	@echo "make build        ansible-galaxy collection build into $(BUILD)/dist (needs only ansible-core: see the target)"
	@echo "make ee           the execution environment's build context in $(BUILD)/ee (after make build)"
	@echo "make de           the decision environment's build context in $(BUILD)/de (extensions/eda/decision-environment.yml; after make build)"
	@echo "make changelog    at release time: turn changelogs/fragments into CHANGELOG.rst for galaxy.yml's version"
	@echo "make release      the release of galaxy.yml's version: changelog, build, certify, smoke play of the installed artifact"
	@echo "make clean        remove .venv, $(BUILD) and caches"

# two lanes at once (.ci/stages.sh -j 2) taking the stages from one queue, the longest first (the oldest and the next
# ansible-core's suites, the newest's integration...), so that both lanes end near the same time
# (the venv first: several stages need it, and on a fresh clone two would build it at once)
test: venv
	@bash .ci/stages.sh -j 2 unit integration real reliability sanity lint certify docs eda demo-kept oldest next matrix

# CI's run on a fresh clone of HEAD, here (.ci/rehearse.sh): a warm checkout hides what only a clean one shows
rehearse:
	@bash .ci/rehearse.sh

# the quick loop before a commit (CONTRIBUTING.md): lint, unit tests, the scenarios in process on one dialect
check: venv
	@bash .ci/stages.sh lint unit-quick scenarios-netbird

# --- virtualenv --------------------------------------------------------------------------------
# The copy of the requirements file inside the venv is the stamp: the venv is rebuilt from scratch
# when the file differs (or the venv's python is broken, e.g. its base interpreter vanished).
# A lock beside the venv: two targets started at once (make test's lanes, two terminals) build it one at a time.
# (VENV_IMPORTS: what a working venv imports; the eda venv is made by this target too)
VENV_IMPORTS ?= ansible, pytest
venv:
	@mkdir -p "$(dir $(VENV))"; exec 9>"$(VENV).lock"; flock 9; \
	if [ -x "$(VPY)" ] && "$(VPY)" -c 'import $(VENV_IMPORTS)' >/dev/null 2>&1 \
	     && cmp -s $(REQUIREMENTS) "$(STAMP)"; then \
	  echo "venv: $(VENV) is up to date with $(REQUIREMENTS)"; \
	else \
	  start=$$(date +%s); \
	  echo "venv: creating $(VENV) with $$($(PYTHON) --version 2>&1) ($(PYTHON))"; \
	  rm -rf "$(VENV)"; \
	  $(PYTHON) -m venv "$(VENV)"; \
	  "$(VPY)" -m pip install --disable-pip-version-check --quiet --upgrade pip; \
	  "$(VPY)" -m pip install --disable-pip-version-check --quiet -r $(REQUIREMENTS); \
	  cp $(REQUIREMENTS) "$(STAMP)"; \
	  echo "venv: installed in $$(( $$(date +%s) - start ))s"; \
	fi

# The oldest supported pair runs the whole pytest suite (sanity, lint and docs run once, on the newest).
# Its integration tests run against the netbird dialect only (what real servers send): the dialects
# differ in server behaviour, which the newest run covers; what differs between ansible-core versions
# is the same in either dialect, and running one keeps make test shorter (the next ansible-core runs the same way).
OLDEST := VENV=$(OLDEST_VENV) REQUIREMENTS=requirements-oldest.txt PYTHON="$$(.ci/python.sh $(OLDEST_PYTHON_VERSION))"
oldest:
	@NMS_EMULATOR_DIALECTS=netbird $(MAKE) unit integration reliability scenarios $(OLDEST) PYTEST_ARGS="-m 'not tooling and not real'"

# The next ansible-core (requirements-next.txt: its release candidate, then its release, on the newest Python), a stage
# of make test: the whole suite as the oldest runs it (its integration tests include every module through
# ansible-playbook, in the controller and as a module process, so no matrix run is needed there). make next-rc says
# when PyPI has a release or candidate newer than the one pinned (.ci/next_rc.py): raise the pin, run make next, then
# raise requires_ansible (CONTRIBUTING.md, "The next ansible-core").
NEXT_VENV ?= .venv-next
NEXT := VENV=$(NEXT_VENV) REQUIREMENTS=requirements-next.txt PYTHON="$$(.ci/python.sh $(NEWEST_PYTHON_VERSION))"
next:
	@NMS_EMULATOR_DIALECTS=netbird $(MAKE) unit integration reliability scenarios $(NEXT) PYTEST_ARGS="-m 'not tooling and not real'"

next-rc: venv
	@"$(VPY)" .ci/next_rc.py requirements-next.txt

matrix: venv
	@PATH="$(VBIN):$$PATH" bash .ci/matrix.sh "$(VPY)" $(MATRIX)

# --- pytest ------------------------------------------------------------------------------------
# pytest exits 5 when it collected no test: that is a failure here, not a silent pass.
define pytest
	@echo "pytest $(1)"; rc=0; \
	"$(VPY)" -m pytest $(1) $(PYTEST_XDIST) $(2) $(PYTEST_ARGS) || rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "ERROR: pytest collected no tests under $(1)" >&2; fi; \
	exit $$rc
endef

unit: venv
	$(call pytest,tests/unit,)

unit-quick: venv
	$(call pytest,tests/unit,-m 'not tooling')

# --- scenarios and the real servers ----------------------------------------------------------------
# tests/scenarios: every module's lifecycle in process; with the real servers (../shared/servers, or the directory
# NMS_REAL_SERVERS names) also against the real v0.27.6 and v0.77.1, their answers' shapes compared with the
# emulator's, plus the example playbooks and the inventory plugin (tests/integration/test_real_servers.py). Without
# the kit the stage says so in one line and runs the emulator's side only; with it, a server that does not start fails.
REAL_KIT = $(or $(NMS_REAL_SERVERS),$(abspath $(CURDIR)/../shared/servers))
real: venv
	@if [ -f "$(REAL_KIT)/realserver.py" ]; then \
	  echo "real: the real NetBird servers of $(REAL_KIT)"; \
	  NMS_REAL=1 NMS_REAL_SERVERS="$(REAL_KIT)" $(MAKE) _real; \
	else \
	  echo "real: skipped: no real NetBird servers at $(REAL_KIT) (set NMS_REAL_SERVERS to the kit's directory)"; \
	  NMS_REAL=0 $(MAKE) scenarios; \
	fi

# every module's scenario, the playbooks' tests against the real servers (the event source's run in the eda stage)
# every real-server test file but the event source's (make eda runs it with ansible-rulebook's venv)
REAL_TESTS := tests/scenarios $(filter-out tests/integration/test_real_eda.py,$(sort $(wildcard tests/integration/test_real_*.py)))
_real: venv
	$(call pytest,$(REAL_TESTS),--dist load -p no:cacheprovider)

scenarios: venv
	NMS_REAL=0 $(MAKE) _scenarios

scenarios-netbird: venv
	NMS_REAL=0 NMS_GENERATIONS=v0.27 $(MAKE) _scenarios

_scenarios: venv
	$(call pytest,tests/scenarios,)

# each worker keeps one emulator per dialect for the session (tests/conftest.py emulators), so tests spread freely
# (the real servers' playbook tests are the real stage's, the event source's the eda stage's)
EDA_TESTS := tests/integration/test_eda_source.py tests/integration/test_real_eda.py
integration: venv
	$(call pytest,tests/integration,--dist load -m 'not real' $(addprefix --ignore=,$(EDA_TESTS)))

reliability: venv
	$(call pytest,tests/reliability,--dist load)

# full size: 200 generated argument sets per module, 20 fault seeds per dialect for build_network
stress: venv
	NMS_STRESS=1 $(MAKE) reliability
	NMS_STRESS=1 "$(VPY)" -m pytest tests/integration/test_network_faults.py $(PYTEST_XDIST) --dist load

# --- Event-Driven Ansible ------------------------------------------------------------------------
# ansible-rulebook in a virtualenv of its own (requirements-eda.txt; its pins need not agree with requirements-dev.txt's),
# made like the venv target's; the tests run in $(VENV) and start $(EDA_VENV)/bin/ansible-rulebook. It needs Java 17+
# (.ci/run installs Debian's default-jre-headless when java is missing); in CI (CI=true) a missing ansible-rulebook or
# Java fails the tests, elsewhere it skips them. With the real servers' kit the rulebook also runs against v0.77.1.
EDA_VENV ?= $(BUILD)/eda-venv
EDA_REQUIREMENTS ?= requirements-eda.txt
eda-venv:
	@$(MAKE) venv VENV=$(EDA_VENV) REQUIREMENTS=$(EDA_REQUIREMENTS) VENV_IMPORTS='ansible_rulebook, ansible'

eda: venv eda-venv
	@if [ -f "$(REAL_KIT)/realserver.py" ]; then \
	  echo "eda: with the real NetBird v0.77.1 of $(REAL_KIT)"; real=1; \
	else \
	  echo "eda: no real NetBird servers at $(REAL_KIT): the real v0.77.1 test is skipped (set NMS_REAL_SERVERS to the kit's directory)"; real=0; \
	fi; \
	NMS_REAL=$$real NMS_REAL_SERVERS="$(REAL_KIT)" NMS_EDA_BIN="$(abspath $(EDA_VENV))/bin" $(MAKE) _eda

_eda: venv
	$(call pytest,$(EDA_TESTS),--dist load -p no:cacheprovider)

# --- ansible-test sanity ------------------------------------------------------------------------
# ansible-test makes a virtualenv per sanity test (--venv, cached under ~/.ansible/test/venv) and
# bootstraps pip in each with a script it downloads from outside the package index, unless a copy
# is cached at ~/.ansible/test/cache/get_pip_<pip version>.py. .ci/get_pip.py is an offline
# stand-in (ensurepip, then pip install from the index) installed there for the pip version each
# ansible-test wants. No tests/sanity/ignore-*.txt exists, and no test is skipped.
#
# Every Python the collection claims (SANITY_PYTHONS: README "Requirements", tests/config.yml) is tested, each
# test once per Python it depends on (tests/sanity/README.md says which test runs where, and why):
#   1. the ansible-test of $(VENV) (2.21, controller Python 3.13): every test; the single-version
#      ones once, on the controller's Python, the multi-version ones (compile, import) on each SANITY_PYTHONS
#      (--target-python). 2.20 and later take 3.11 as a target-only Python: there they check modules and
#      module_utils only, the code a 2.21 controller runs on a 3.11 host.
#   2. the ansible-test of $(OLDEST_VENV) (2.16, controller Python 3.11): the multi-version tests only
#      (SANITY_MULTI), on 3.11, the controller side (action, lookup, filter and inventory plugins)
#      included, as ansible-core 2.16 to 2.19 run it there. SANITY_OLDEST= skips this run.
# ansible-test finds a target's Python by its name on PATH, where a pyenv shim runs only the versions pyenv selects:
# $(BUILD)/sanity-python holds pythonX.Y links to the interpreters .ci/python.sh finds.
# tests/unit/test_sanity_pythons.py fails when an ansible-test has a multi-version test that SANITY_MULTI lacks.
SANITY_PYTHONS ?= 3.11 3.12 3.13
SANITY_MULTI   ?= compile import
SANITY_OLDEST  ?= 1
SANITY_PYBIN   := $(abspath $(BUILD))/sanity-python
sanity: venv
	@if ls tests/sanity/ignore-*.txt >/dev/null 2>&1; then \
	  echo "ERROR: tests/sanity/ignore-*.txt must not exist: fix the findings instead" >&2; exit 1; fi
	@if [ -n "$(SANITY_OLDEST)" ]; then $(MAKE) venv $(OLDEST); fi
	@for vpy in "$(VPY)" $(if $(SANITY_OLDEST),"$(abspath $(OLDEST_VENV))/bin/python"); do \
	  pip_version=$$("$$vpy" -c 'import ansible_test, os, re; src = open(os.path.join(os.path.dirname(ansible_test.__file__), "_internal", "python_requirements.py")).read(); print(re.search(r"pip=.([0-9.]+).", src).group(1))'); \
	  cache="$$HOME/.ansible/test/cache/get_pip_$${pip_version//./_}.py"; \
	  mkdir -p "$$(dirname "$$cache")"; cp .ci/get_pip.py "$$cache"; \
	  echo "sanity: pip $$pip_version bootstrap -> $$cache"; \
	done
	@rm -rf "$(SANITY_PYBIN)"; mkdir -p "$(SANITY_PYBIN)"; \
	for v in $(SANITY_PYTHONS); do \
	  ln -s "$$("$$(.ci/python.sh $$v)" -c 'import sys; print(sys.executable)')" "$(SANITY_PYBIN)/python$$v"; \
	done
	@"$(VPY)" .ci/stage.py "$(SANITY_ROOT)" >/dev/null
	@start=$$(date +%s); \
	pyver=$$("$(VPY)" -c 'import sys; print("%d.%d" % sys.version_info[:2])'); \
	targets=""; for v in $(SANITY_PYTHONS); do targets="$$targets --target-python $$v@$(SANITY_PYBIN)/python$$v"; done; \
	echo "sanity: ansible-test $$("$(VBIN)/ansible" --version | sed -n '1s/.*core \([0-9.]*\).*/\1/p') sanity --controller origin:python=venv/$$pyver$$targets (in $(COLLECTION))"; \
	rc=0; (cd "$(COLLECTION)" && PATH="$(SANITY_PYBIN):$(VBIN):$$PATH" "$(VBIN)/ansible-test" sanity --controller "origin:python=venv/$$pyver" $$targets --color no $(SANITY_ARGS)) || rc=$$?; \
	echo "sanity: finished in $$(( $$(date +%s) - start ))s, exit $$rc"; \
	if [ -n "$(SANITY_OLDEST)" ]; then \
	  obin="$(abspath $(OLDEST_VENV))/bin"; ostart=$$(date +%s); \
	  tests=""; for t in $(SANITY_MULTI); do tests="$$tests --test $$t"; done; \
	  echo "sanity: ansible-test $$("$$obin/ansible" --version | sed -n '1s/.*core \([0-9.]*\).*/\1/p') sanity$$tests --venv --python $(OLDEST_PYTHON_VERSION) (the controller side on $(OLDEST_PYTHON_VERSION))"; \
	  orc=0; (cd "$(COLLECTION)" && PATH="$(SANITY_PYBIN):$$obin:$$PATH" "$$obin/ansible-test" sanity $$tests --venv --python $(OLDEST_PYTHON_VERSION) --color no) || orc=$$?; \
	  echo "sanity: oldest finished in $$(( $$(date +%s) - ostart ))s, exit $$orc"; [ "$$rc" -ne 0 ] || rc=$$orc; \
	fi; \
	echo "sanity: all finished in $$(( $$(date +%s) - start ))s, exit $$rc"; exit $$rc

# --- galaxy-importer ------------------------------------------------------------------------------
# The importer of Galaxy and Automation Hub on the artifact of make build (.ci/certify.sh), in a venv of its own
# (requirements-certify.txt, made like eda-venv); make test runs it after lint and fails on any ERROR or WARNING line.
CERTIFY_VENV ?= $(BUILD)/certify-venv
certify-venv:
	@$(MAKE) venv VENV=$(CERTIFY_VENV) REQUIREMENTS=requirements-certify.txt VENV_IMPORTS='galaxy_importer, ansiblelint'

certify: certify-venv
	@bash .ci/certify.sh "$(abspath $(CERTIFY_VENV))/bin"

# --- ansible-lint -------------------------------------------------------------------------------
# (.ci/run has no .sh suffix, so ansible-test's shellcheck test does not see it: check it here)
lint: venv
	@echo "lint: shellcheck .ci/run .ci/*.sh"; "$(VBIN)/shellcheck" .ci/run .ci/*.sh
	@start=$$(date +%s); rc=0; \
	[ -t 1 ] || export NO_COLOR=1; \
	mkdir -p "$(BUILD)/lint/ansible_collections/nms"; ln -sfn "$(CURDIR)" "$(BUILD)/lint/ansible_collections/nms/overlay"; \
	ANSIBLE_COLLECTIONS_PATH="$(abspath $(BUILD))/lint" PATH="$(VBIN):$$PATH" "$(VBIN)/ansible-lint" --profile production --offline $(LINT_ARGS) || rc=$$?; \
	echo "lint: ansible-lint finished in $$(( $$(date +%s) - start ))s, exit $$rc"; exit $$rc

# --- documentation ------------------------------------------------------------------------------
DOCS_OUT ?= $(BUILD)/docs
docs: venv
	@bash .ci/docs.sh "$(VBIN)" "$(DOCS_OUT)"
	@NMS_DOCS_SITE="$(abspath $(DOCS_OUT))" $(MAKE) _docs-site

# the built site in headless Chromium (tests/docs: sections, links inside the site, a page for every module and plugin)
_docs-site: venv
	$(call pytest,tests/docs,-p no:cacheprovider)

# --- demo ---------------------------------------------------------------------------------------
# Not the development venv: .ci/demo.sh runs in a small one of its own (.build/demo-venv, requirements-demo.txt:
# ansible-core and the collection's runtime requirements), made with $(PYTHON) when missing or out of date
demo:
	@PYTHON="$(PYTHON)" DEMO_DIALECT="$(DEMO_DIALECT)" bash .ci/demo.sh

# make test's demo stage: the demo with DEMO_KEEP=1, then .ci/demo-kept.sh checks that the emulator it left
# running answers with the printed exports (whose PATH is the demo's venv), and stops it with the printed command
demo-kept:
	@PYTHON="$(PYTHON)" DEMO_DIALECT="$(DEMO_DIALECT)" DEMO_KEEP=1 bash .ci/demo.sh
	@bash .ci/demo-kept.sh

# --- benchmark ----------------------------------------------------------------------------------
BENCH_ARGS ?=
# the ratios of issue 30 on $(VENV) and on the oldest ansible-core ($(OLDEST_VENV)), written to docs/performance.md and
# docs/performance.json; a quick run: make bench BENCH_ARGS='--sizes S --repeats 1 --modules group,policy'
bench: venv
	@$(MAKE) venv $(OLDEST)
	"$(VPY)" -m tests.bench.bench --compare-python "$(abspath $(OLDEST_VENV))/bin/python" $(BENCH_ARGS)

# --- generated tables -----------------------------------------------------------------------------
# plugins/module_utils/_tables.py from the kinds' declarations (a unit test fails when it falls behind them)
.PHONY: tables
tables: venv
	"$(VPY)" -m tests.support.tables

# --- packaging ----------------------------------------------------------------------------------
# No development venv needed: the ansible-galaxy of $(VENV) if it exists, else the one on PATH, else one of a
# small venv ($(BUILD)/build-venv) with only requirements-dev.txt's ansible-core. galaxy.yml has the version.
BUILD_VENV := $(BUILD)/build-venv
build:
	@if [ -x "$(VBIN)/ansible-galaxy" ]; then galaxy="$(VBIN)/ansible-galaxy"; \
	elif command -v ansible-galaxy >/dev/null 2>&1; then galaxy=$$(command -v ansible-galaxy); \
	else \
	  core=$$(grep -E '^ansible-core==' requirements-dev.txt); galaxy="$(BUILD_VENV)/bin/ansible-galaxy"; \
	  if [ ! -x "$$galaxy" ]; then \
	    echo "build: no ansible-galaxy found: creating $(BUILD_VENV) with $$core only"; \
	    $(PYTHON) -m venv "$(BUILD_VENV)" && "$(BUILD_VENV)/bin/python" -m pip install --disable-pip-version-check --quiet "$$core"; \
	  fi; \
	fi; \
	mkdir -p "$(BUILD)/dist"; \
	echo "build: $$galaxy collection build"; \
	"$$galaxy" collection build --force --output-path "$(BUILD)/dist" .

ee: venv
	@bash .ci/ee.sh "$(VBIN)"

# the decision environment (ansible-rulebook and the collection) as .ci/ee.sh makes the execution environment's context:
# from the artifact of make build, under the name without the version that the definition refers to
DE_CONTEXT := $(BUILD)/de
de: venv
	@version=$$(bash .ci/version.sh); artifact="$(BUILD)/dist/nms-overlay-$$version.tar.gz"; \
	if [ ! -f "$$artifact" ]; then \
	  echo "de: $$artifact is missing (galaxy.yml's version is $$version): run make build first; the decision environment installs the collection from it" >&2; exit 1; \
	fi; \
	mkdir -p "$(BUILD)/ee-collection"; cp "$$artifact" "$(BUILD)/ee-collection/nms-overlay.tar.gz"; \
	"$(VBIN)/ansible-builder" create --file extensions/eda/decision-environment.yml --context "$(DE_CONTEXT)" --output-filename Containerfile; \
	if [ ! -f "$(DE_CONTEXT)/_build/collections/nms-overlay.tar.gz" ]; then \
	  echo "de: $(DE_CONTEXT) lacks the collection artifact: see additional_build_files of extensions/eda/decision-environment.yml" >&2; exit 1; \
	fi; \
	echo "de: build context $(DE_CONTEXT) with $$artifact"; \
	echo "de: build the image with: ansible-builder build --context $(DE_CONTEXT) --tag nms-overlay-de:$$version   (podman or docker)"

# Consumes the fragments into changelogs/changelog.yaml and writes CHANGELOG.rst (commit both).
changelog: venv
	PATH="$(VBIN):$$PATH" "$(VBIN)/antsibull-changelog" release

# The release procedure (docs/dev/release.md): a clean tree on galaxy.yml's version, the changelog (committed), make build,
# make certify (galaxy-importer), and the artifact installed in a new venv for a smoke play against the emulator
.PHONY: release
release: venv
	@PYTHON="$(PYTHON)" VENV_BIN="$(VBIN)" bash .ci/release.sh

clean:
	rm -rf "$(VENV)" "$(VENV).lock" "$(BUILD)" .pytest_cache .hypothesis .ansible tests/output
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
