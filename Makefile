# wqstat: workqueue tracepoints, a stat tracer and its tools, for Linux 6.1
# and 6.12 (KERNEL=6.12 before any target picks 6.12; 6.1 is the default).
#   make demo        build everything, boot the guest, show trace_stat/workqueues
#   make check       host tests + the guest suites (6.1's, then 6.12's;
#                    KERNEL=6.12: 6.12's alone); ends "N passed, N failed"
#   make check-stress  make check beside a busy loop on every host core
#                    (WQ_HOST_LOAD=N make check: N loops)
#   make check-rt    the 6.12 series built with PREEMPT_RT and its lock
#                    checks: the main tests and the stress runs (one boot)
#   make ftracetest  the kernel's ftracetest (00basic, ftrace) on the ftrace
#                    kernel with and without the series: no case regresses
#                    (two boots; on a quiet host: docs/kernels.md)
#   make mutants     the bugs of ci/mutants/, each must fail a test (MUTANTS=k04 picks)
#   make run-guest SCRIPT=path   run a script as root in the guest
#   make bench       what watching workqueues costs: seven ways (bpftrace
#                    among them), I/O to a loop device, 131,072 rows,
#                    destroy_workqueue(); three guest boots; then fio
#                    with the tracer off and on, on make cost's kernel
#   make bench-fio   that fio boot alone (FIO_ROUNDS=N, 5 by default)
#   make bench-vanilla  the same workloads on unpatched 6.1, tracer off
#   make bench-placebo  the control: vanilla vs vanilla with its code moved
#   make cost        where the stat tracer's cost per item goes: executed
#                    instructions per function (-icount and a QEMU plugin)
# Everything is built in build/; each target installs the Debian packages it
# needs first.  LINUX_SOURCE_TAR=... points the build at another source of
# the kernel KERNEL names.

.PHONY: all deps kernel guest demo check check-stress check-rt ftracetest mutants run-guest wqstat bench bench-vanilla bench-placebo bench-fio cost clean distclean

all: guest

deps:
	@bash -c 'top=$$PWD; . ci/lib.sh && wq_kernel && ci/deps.sh $$wq_pkg'

kernel: deps
	@bash -c 'top=$$PWD; . ci/lib.sh && wq_kernel && ci/kernel.sh $$wq_name $$wq_kp/series kernel-patches/guest.config kernel-patches/wqstat.config kernel-patches/mm.config'

guest:
	@ci/build.sh linux

wqstat:
	@$(MAKE) -s -C stat-tracer O=$(CURDIR)/build/stat-tracer WERROR=-Werror

demo:
	@ci/demo.sh

check:
	@ci/check.sh

check-stress:
	@WQ_HOST_LOAD=$$(nproc) ci/check.sh

check-rt:
	@ci/rt.sh

ftracetest:
	@ci/ftracetest.sh

mutants:
	@ci/mutants.sh

run-guest:
	@ci/run-guest.sh "$(SCRIPT)"

bench:
	@ci/bench.sh

bench-vanilla:
	@ci/bench.sh vanilla

bench-placebo:
	@ci/bench.sh placebo

bench-fio:
	@ci/bench.sh fio

cost:
	@ci/cost.sh

clean:
	rm -rf build/guest build/stage-* build/modules-* build/stat-tracer build/dracut

distclean:
	rm -rf build
