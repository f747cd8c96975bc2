// SPDX-License-Identifier: GPL-2.0
/*
 * mmfault: take page faults and unmaps whose address and pfn are known, for
 * the mm_fault tests, and check /proc/kpageflags on known pages.
 *
 *   mmfault faults DIR    every fault and unmap case, with the mm_fault
 *                         tracepoints enabled by the caller; files in DIR
 *   mmfault swap          an anonymous page paged out, then read back
 *   mmfault kpf DIR [PFN] the flags of known pages; PFN: one in a hole
 *
 * Each expectation is one line on stdout:
 *   expect PID EVENT key=value...
 *   absent PID EVENT WHY address=0x...  (no such event must be in the trace)
 *   flags NAME pfn=0x... kpageflags=0x... set=LIST clear=LIST
 * and the caller looks each one up in the trace or in /proc/kpageflags.
 * Errors go to stderr with a non-zero exit; 77 means "cannot test here".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#define PG		4096UL
#define PM_PRESENT	(1ULL << 63)
#define PM_SWAP		(1ULL << 62)
#define PM_PFN		((1ULL << 55) - 1)
#define TMPFS_MAGIC	0x01021994

/* the flags of /proc/kpageflags this tool asserts */
#define KPF_MMAP		11
#define KPF_ANON		12
#define KPF_SWAPBACKED		14
#define KPF_COMPOUND_HEAD	15
#define KPF_COMPOUND_TAIL	16
#define KPF_NOPAGE		20
#define KPF_THP			22

/* the one error printer: a message, then exit with STATUS */
static void __attribute__((noreturn, format(printf, 2, 3)))
die(int status, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "mmfault: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

/* the pagemap entry of one user address of this process */
static uint64_t pagemap(const void *addr)
{
	uint64_t e;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0)
		die(77, "/proc/self/pagemap: %s", strerror(errno));
	if (pread(fd, &e, sizeof(e), (uintptr_t)addr / PG * sizeof(e)) != sizeof(e))
		die(1, "/proc/self/pagemap: short read at %p", addr);
	close(fd);
	return e;
}

/* the pfn mapped at ADDR; dies if nothing is (or if pfns are hidden) */
static unsigned long pfn_of(const void *addr)
{
	uint64_t e = pagemap(addr);

	if (!(e & PM_PRESENT))
		die(1, "%p: not present in pagemap (0x%llx)", addr,
		    (unsigned long long)e);
	if (!(e & PM_PFN))
		die(77, "pagemap hides pfns (needs CAP_SYS_ADMIN)");
	return e & PM_PFN;
}

static void *map(size_t len, int prot, int flags, int fd)
{
	void *p = mmap(NULL, len, prot, flags, fd, 0);

	if (p == MAP_FAILED)
		die(1, "mmap of %zu bytes: %s", len, strerror(errno));
	return p;
}

/* DIR/NAME, NPAGES pages of known bytes; returns an open fd */
static int make_file(const char *dir, const char *name, int npages)
{
	char path[4096], buf[PG];
	int fd, i;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die(1, "%s: %s", path, strerror(errno));
	for (i = 0; i < npages; i++) {
		memset(buf, 'a' + i, sizeof(buf));
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			die(1, "%s: write: %s", path, strerror(errno));
	}
	return fd;
}

static sigjmp_buf sigbus_jump;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(sigbus_jump, 1);
}

static void expect(const char *event, const void *addr, const char *fmt, ...)
{
	va_list ap;

	printf("expect %d %s address=0x%lx ", getpid(), event,
	       (unsigned long)(uintptr_t)addr);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* every fault and unmap case but the swap-in */
static int faults(const char *dir)
{
	volatile char *a, *z, *c, *m, *w, *p, *m2;
	unsigned long pfn, old;
	int fd, i, status;
	pid_t pid;
	char v;

	/* a write to fresh anonymous memory: a zeroed private page */
	a = map(PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	a[0] = 1;
	expect("mm_fault_anon", (void *)a, "pfn=0x%lx major=0 write=1", pfn_of((void *)a));

	/* a read of fresh anonymous memory maps the zero page; a write copies it */
	z = map(PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	v = z[0];
	old = pfn_of((void *)z);
	expect("mm_fault_anon", (void *)z, "pfn=0x%lx major=0 write=0", old);
	z[0] = v + 1;
	expect("mm_fault_anon_cow", (void *)z, "pfn=0x%lx old_pfn=0x%lx",
	       pfn_of((void *)z), old);

	/* fork, then the child writes: it copies the page it shares */
	c = map(PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	c[0] = 1;
	old = pfn_of((void *)c);
	pid = fork();
	if (pid < 0)
		die(1, "fork: %s", strerror(errno));
	if (pid == 0) {
		c[0] = 2;
		pfn = pfn_of((void *)c);
		expect("mm_fault_anon_cow", (void *)c, "pfn=0x%lx old_pfn=0x%lx", pfn, old);
		/* and its exit unmaps the copy */
		expect("mm_unmap_anon", (void *)c, "pfn=0x%lx dirty=1 exiting=1", pfn);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		die(1, "the child that writes after fork failed");
	if (c[0] != 1)
		die(1, "the parent sees the child's write: no copy was made");

	fd = make_file(dir, "mmfault.data", 4);

	/* a read of a shared file mapping; fault-around may map neighbours */
	m = map(4 * PG, PROT_READ, MAP_SHARED, fd);
	v = m[0];
	if (v != 'a')
		die(1, "file page 0 reads '%c', not 'a'", v);
	expect("mm_fault_file", (void *)m, "pfn=0x%lx major=0 write=0", pfn_of((void *)m));
	for (i = 1; i < 4; i++) {
		if (pagemap((void *)(m + i * PG)) & PM_PRESENT)
			printf("absent %d mm_fault_file fault-around address=0x%lx\n", getpid(),
			       (unsigned long)(uintptr_t)(m + i * PG));
	}
	v = m[2 * PG];		/* the page cache page of page 2, for below */

	/* a write to a shared file mapping */
	w = map(4 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd);
	w[PG] = 'B';
	expect("mm_fault_file", (void *)(w + PG), "pfn=0x%lx major=0 write=1",
	       pfn_of((void *)(w + PG)));

	/* a write to a private file mapping, page not mapped yet: a copy */
	p = map(4 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd);
	p[2 * PG] = 'X';
	expect("mm_fault_file_cow", (void *)(p + 2 * PG), "pfn=0x%lx old_pfn=0x%lx",
	       pfn_of((void *)(p + 2 * PG)), pfn_of((void *)(m + 2 * PG)));
	/* ... and a read first, then a write: the read maps the page cache */
	v = p[3 * PG];
	old = pfn_of((void *)(p + 3 * PG));
	p[3 * PG] = v + 1;
	expect("mm_fault_file_cow", (void *)(p + 3 * PG), "pfn=0x%lx old_pfn=0x%lx",
	       pfn_of((void *)(p + 3 * PG)), old);
	if (m[2 * PG] != 'c' || m[3 * PG] != 'd')
		die(1, "a private write reached the file");

	/* a fault that fails is not reported: a read past the end of the file */
	close(fd);
	fd = make_file(dir, "mmfault.short", 1);
	m2 = map(2 * PG, PROT_READ, MAP_SHARED, fd);
	signal(SIGBUS, on_sigbus);
	if (sigsetjmp(sigbus_jump, 1) == 0) {
		v = m2[PG];
		die(1, "a read past the end of the file did not raise SIGBUS");
	}
	signal(SIGBUS, SIG_DFL);
	printf("absent %d mm_fault_file sigbus address=0x%lx\n", getpid(),
	       (unsigned long)(uintptr_t)(m2 + PG));

	/* munmap of an anonymous page and of clean and dirty file pages */
	pfn = pfn_of((void *)a);
	if (munmap((void *)a, PG))
		die(1, "munmap: %s", strerror(errno));
	expect("mm_unmap_anon", (void *)a, "pfn=0x%lx dirty=1 exiting=0", pfn);
	pfn = pfn_of((void *)m);
	old = pfn_of((void *)(w + PG));
	if (munmap((void *)m, 4 * PG) || munmap((void *)w, 4 * PG))
		die(1, "munmap: %s", strerror(errno));
	expect("mm_unmap_file", (void *)m, "pfn=0x%lx dirty=0 exiting=0", pfn);
	expect("mm_unmap_file", (void *)(w + PG), "pfn=0x%lx dirty=1 exiting=0", old);
	close(fd);
	return 0;
}

/*
 * An anonymous page paged out with MADV_PAGEOUT, then read back.  Whether
 * the read mapped it writable is up to the kernel (6.1 does not; 6.12 does
 * for a page no one else maps): a write right after tells, by taking a
 * fault or not.
 */
static int swap(void)
{
	struct rusage r0, r1;
	volatile char *s;
	unsigned long pfn;
	uint64_t e;
	char v;

	s = map(PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	s[0] = 7;
	if (madvise((void *)s, PG, MADV_PAGEOUT))
		die(77, "madvise(MADV_PAGEOUT): %s", strerror(errno));
	e = pagemap((void *)s);
	if (e & PM_PRESENT || !(e & PM_SWAP))
		die(77, "MADV_PAGEOUT left the page in memory (pagemap 0x%llx): no swap?",
		    (unsigned long long)e);
	v = s[0];
	if (v != 7)
		die(1, "the page came back from swap with %d, not 7", v);
	pfn = pfn_of((void *)s);
	if (getrusage(RUSAGE_SELF, &r0))
		die(1, "getrusage: %s", strerror(errno));
	s[0] = 8;
	if (getrusage(RUSAGE_SELF, &r1))
		die(1, "getrusage: %s", strerror(errno));
	if (pfn_of((void *)s) != pfn)
		die(1, "the write after the swap-in moved the page: a copy-on-write?");
	/* major: 1 if it was read from the disk, 0 if still in the swap cache */
	expect("mm_fault_swapin", (void *)s, "pfn=0x%lx write=%d", pfn,
	       r1.ru_minflt == r0.ru_minflt && r1.ru_majflt == r0.ru_majflt);
	return 0;
}

/* print the flags of PFN from /proc/kpageflags, read while it is mapped */
static void flags(const char *name, unsigned long pfn, const char *set, const char *clear)
{
	uint64_t f;
	int fd = open("/proc/kpageflags", O_RDONLY);

	if (fd < 0)
		die(77, "/proc/kpageflags: %s", strerror(errno));
	if (pread(fd, &f, sizeof(f), pfn * sizeof(f)) != sizeof(f))
		die(1, "/proc/kpageflags: no entry for pfn 0x%lx", pfn);
	close(fd);
	printf("flags %s pfn=0x%lx kpageflags=0x%llx set=%s clear=%s\n", name, pfn,
	       (unsigned long long)f, set, clear);
}

/* known pages for /proc/kpageflags; then page-types lists them */
static int kpf(const char *dir, const char *hole)
{
	volatile char *a, *f, *h;
	struct statfs sfs;
	char cmd[256];
	int fd;

	a = map(PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	a[0] = 1;
	flags("anon", pfn_of((void *)a), "MMAP,ANON,SWAPBACKED",
	      "COMPOUND_HEAD,COMPOUND_TAIL,NOPAGE");

	fd = make_file(dir, "mmfault.kpf", 1);
	if (fstatfs(fd, &sfs))
		die(1, "fstatfs: %s", strerror(errno));
	f = map(PG, PROT_READ, MAP_SHARED, fd);
	if (f[0] != 'a')
		die(1, "the file page reads '%c', not 'a'", f[0]);
	/* tmpfs page cache is swap-backed; that of other file systems is not */
	flags("file", pfn_of((void *)f), sfs.f_type == TMPFS_MAGIC ? "MMAP,SWAPBACKED" : "MMAP",
	      sfs.f_type == TMPFS_MAGIC ? "ANON,COMPOUND_HEAD,COMPOUND_TAIL,NOPAGE" :
	      "ANON,SWAPBACKED,COMPOUND_HEAD,COMPOUND_TAIL,NOPAGE");

	/* a transparent huge page: 2 MiB aligned, asked for with madvise */
	h = map(4 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	h = (volatile char *)(((uintptr_t)h + (2 << 20) - 1) & ~((2UL << 20) - 1));
	if (madvise((void *)h, 2 << 20, MADV_HUGEPAGE) == 0) {
		h[0] = 1;
		if (pfn_of((void *)(h + PG)) == pfn_of((void *)h) + 1 &&
		    (pfn_of((void *)h) & 511) == 0) {
			flags("thp-head", pfn_of((void *)h), "MMAP,ANON,COMPOUND_HEAD,THP",
			      "COMPOUND_TAIL,NOPAGE");
			flags("thp-tail", pfn_of((void *)(h + PG)), "MMAP,ANON,COMPOUND_TAIL,THP",
			      "COMPOUND_HEAD,NOPAGE");
		} else {
			printf("skip thp: the fault did not map a huge page\n");
		}
	} else {
		printf("skip thp: madvise(MADV_HUGEPAGE): %s\n", strerror(errno));
	}
	if (hole)
		flags("hole", strtoul(hole, NULL, 0), "NOPAGE",
		      "MMAP,ANON,SWAPBACKED,COMPOUND_HEAD,COMPOUND_TAIL");
	else
		printf("skip hole: no hole in the physical address space given\n");

	/* page-types walks this process: the same pages, the same pfns */
	printf("page-types anon=%lx file=%lx\n", (unsigned long)((uintptr_t)a / PG),
	       (unsigned long)((uintptr_t)f / PG));
	fflush(stdout);
	snprintf(cmd, sizeof(cmd), "page-types -p %d -a %lu -L -N; page-types -p %d -a %lu -L -N",
		 getpid(), (unsigned long)((uintptr_t)a / PG),
		 getpid(), (unsigned long)((uintptr_t)f / PG));
	if (system(cmd) != 0)
		die(1, "'%s' failed", cmd);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "faults"))
		return faults(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "swap"))
		return swap();
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "kpf"))
		return kpf(argv[2], argc == 4 ? argv[3] : NULL);
	die(2, "usage: mmfault faults DIR | mmfault swap | mmfault kpf DIR [HOLE_PFN]");
}
