// SPDX-License-Identifier: GPL-2.0
/*
 * insncount: a QEMU TCG plugin that counts, per guest function, the calls,
 * the instructions executed and the locked read-modify-writes among them,
 * in phases that the guest marks.  A block's instructions are counted when
 * it starts, so one that an exception cuts short counts whole.  `make cost` loads it into a guest
 * booted with -icount (one vCPU, one TCG thread), so that the counts do
 * not depend on how busy the host is.
 *
 *   -plugin insncount.so,map=FILE,mark=ADDR,out=FILE
 *
 * map:  "START SIZE NAME" lines, hexadecimal, as nm -S prints them (the
 *       guest kernel's functions; overlapping ones are dropped)
 * mark: the address of a function whose every call ends a phase (the
 *       guest calls it between the steps it measures)
 * out:  the report, written at exit: "phase N" lines, then one line per
 *       function that ran in that phase: "NAME CALLS INSNS LOCKED"
 *
 * The plugin interface is declared here, as QEMU 7.2 (API version 1)
 * defines it, so that no QEMU source is needed to build it.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_info;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*tb_trans_cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*vcpu_udata_cb)(unsigned int vcpu, void *udata);
typedef void (*udata_cb)(qemu_plugin_id_t id, void *udata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_cb cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb cb, void *udata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						enum qemu_plugin_op op,
						void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    vcpu_udata_cb cb,
					    enum qemu_plugin_cb_flags flags,
					    void *udata);
void qemu_plugin_outs(const char *string);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* One guest function and its counts. */
struct func {
	uint64_t start, end;
	char *name;
	uint64_t calls, insns, locked;
};

static struct func *funcs;
static size_t nr_funcs;
static uint64_t mark_addr;
static const char *out_path;
/* the counts at each mark, one array of 3 * nr_funcs per phase */
static uint64_t **phases;
static size_t nr_phases;

/* Say what is wrong, on QEMU's log, and fail the install. */
static int fail(const char *what, const char *arg)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "insncount: %s%s%s\n", what, arg ? ": " : "",
		 arg ? arg : "");
	qemu_plugin_outs(msg);
	return -1;
}

static int cmp_start(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Read the map; keep the functions sorted, without overlaps. */
static int read_map(const char *path)
{
	FILE *f = fopen(path, "r");
	char name[256];
	uint64_t start, size;
	size_t cap = 0, i, n = 0;

	if (!f)
		return fail("cannot open the map", path);
	while (fscanf(f, "%" SCNx64 " %" SCNx64 " %*s %255s", &start, &size, name) == 3) {
		if (!size)
			continue;
		if (nr_funcs == cap) {
			cap = cap ? 2 * cap : 4096;
			funcs = realloc(funcs, cap * sizeof(*funcs));
			if (!funcs) {
				fclose(f);
				return fail("out of memory", NULL);
			}
		}
		funcs[nr_funcs].start = start;
		funcs[nr_funcs].end = start + size;
		funcs[nr_funcs].name = strdup(name);
		funcs[nr_funcs].calls = funcs[nr_funcs].insns = funcs[nr_funcs].locked = 0;
		nr_funcs++;
	}
	fclose(f);
	if (!nr_funcs)
		return fail("no function in the map", path);
	qsort(funcs, nr_funcs, sizeof(*funcs), cmp_start);
	for (i = 0; i < nr_funcs; i++)
		if (!n || funcs[i].start >= funcs[n - 1].end)
			funcs[n++] = funcs[i];
	nr_funcs = n;
	return 0;
}

/* The function that holds @addr, or NULL. */
static struct func *lookup(uint64_t addr)
{
	size_t lo = 0, hi = nr_funcs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < funcs[mid].start)
			hi = mid;
		else if (addr >= funcs[mid].end)
			lo = mid + 1;
		else
			return &funcs[mid];
	}
	return NULL;
}

/*
 * Whether an x86 instruction is a locked read-modify-write: a LOCK prefix
 * among its prefixes, or XCHG with a memory operand, which locks without.
 * On a machine with one CPU online, the kernel's SMP alternatives replace
 * each LOCK prefix of its atomics with a DS prefix, which 64-bit code has
 * no other use for: that counts as locked too, for what the instruction
 * is on more than one CPU.
 */
static bool is_locked(const uint8_t *p, size_t len)
{
	size_t i = 0;

	for (; i < len; i++) {
		if (p[i] == 0xf0 || p[i] == 0x3e)
			return true;
		if (p[i] != 0xf2 && p[i] != 0xf3 && p[i] != 0x2e && p[i] != 0x36 &&
		    p[i] != 0x26 && p[i] != 0x64 && p[i] != 0x65 &&
		    p[i] != 0x66 && p[i] != 0x67)
			break;
	}
	if (i < len && (p[i] & 0xf0) == 0x40)	/* REX */
		i++;
	return i + 1 < len && (p[i] == 0x86 || p[i] == 0x87) && (p[i + 1] >> 6) != 3;
}

/* A mark: keep every count as it is now. */
static void on_mark(unsigned int vcpu, void *udata)
{
	uint64_t *v = malloc(3 * nr_funcs * sizeof(*v));
	uint64_t **p = realloc(phases, (nr_phases + 1) * sizeof(*p));
	size_t i;

	(void)vcpu;
	(void)udata;
	if (!v || !p) {
		free(v);
		if (p)
			phases = p;
		return;		/* the report says how many phases it has */
	}
	phases = p;
	for (i = 0; i < nr_funcs; i++) {
		v[3 * i] = funcs[i].calls;
		v[3 * i + 1] = funcs[i].insns;
		v[3 * i + 2] = funcs[i].locked;
	}
	phases[nr_phases++] = v;
}

/*
 * Translation: add each block's instructions to the functions they belong
 * to, with one inline add per function at the block's first instruction
 * (a block rarely spans two), and count a call at a function's first
 * instruction.
 */
static void on_tb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, j, nf = 0, n = qemu_plugin_tb_n_insns(tb);
	struct { struct func *f; uint64_t insns, locked; } part[8];
	struct qemu_plugin_insn *first;

	(void)id;
	if (!n)
		return;
	first = qemu_plugin_tb_get_insn(tb, 0);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t va = qemu_plugin_insn_vaddr(insn);
		struct func *f = lookup(va);

		if (va == mark_addr)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark,
							       QEMU_PLUGIN_CB_NO_REGS,
							       NULL);
		if (!f)
			continue;
		if (va == f->start)
			qemu_plugin_register_vcpu_insn_exec_inline(insn,
								   QEMU_PLUGIN_INLINE_ADD_U64,
								   &f->calls, 1);
		for (j = 0; j < nf && part[j].f != f; j++)
			;
		if (j == nf) {
			if (nf == sizeof(part) / sizeof(part[0])) {
				/* more functions than a block should hold: count alone */
				qemu_plugin_register_vcpu_insn_exec_inline(insn,
									   QEMU_PLUGIN_INLINE_ADD_U64,
									   &f->insns, 1);
				if (is_locked(qemu_plugin_insn_data(insn),
					      qemu_plugin_insn_size(insn)))
					qemu_plugin_register_vcpu_insn_exec_inline(insn,
										   QEMU_PLUGIN_INLINE_ADD_U64,
										   &f->locked, 1);
				continue;
			}
			part[nf].f = f;
			part[nf].insns = 0;
			part[nf++].locked = 0;
		}
		part[j].insns++;
		part[j].locked += is_locked(qemu_plugin_insn_data(insn),
					    qemu_plugin_insn_size(insn));
	}
	for (j = 0; j < nf; j++) {
		qemu_plugin_register_vcpu_insn_exec_inline(first, QEMU_PLUGIN_INLINE_ADD_U64,
							   &part[j].f->insns,
							   part[j].insns);
		if (part[j].locked)
			qemu_plugin_register_vcpu_insn_exec_inline(first,
								   QEMU_PLUGIN_INLINE_ADD_U64,
								   &part[j].f->locked,
								   part[j].locked);
	}
}

/* Exit: each phase's counts, as the difference from the mark before it. */
static void on_atexit(qemu_plugin_id_t id, void *udata)
{
	FILE *f = fopen(out_path, "w");
	size_t p, i;

	(void)id;
	(void)udata;
	if (!f) {
		fail("cannot write the report", out_path);
		return;
	}
	fprintf(f, "# insncount: %zu functions, %zu marks\n", nr_funcs, nr_phases);
	for (p = 1; p < nr_phases; p++) {
		const uint64_t *a = phases[p - 1], *b = phases[p];

		fprintf(f, "phase %zu\n", p);
		for (i = 0; i < nr_funcs; i++)
			if (b[3 * i + 1] != a[3 * i + 1])
				fprintf(f, "%s %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
					funcs[i].name, b[3 * i] - a[3 * i],
					b[3 * i + 1] - a[3 * i + 1],
					b[3 * i + 2] - a[3 * i + 2]);
	}
	if (fclose(f))
		fail("cannot write the report", out_path);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info *info,
			int argc, char **argv)
{
	const char *map = NULL;
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "map=", 4))
			map = argv[i] + 4;
		else if (!strncmp(argv[i], "mark=", 5))
			mark_addr = strtoull(argv[i] + 5, NULL, 16);
		else if (!strncmp(argv[i], "out=", 4))
			out_path = argv[i] + 4;
		else
			return fail("unknown argument", argv[i]);
	}
	if (!map || !mark_addr || !out_path)
		return fail("map=, mark= and out= are all needed", NULL);
	if (read_map(map))
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
	qemu_plugin_register_atexit_cb(id, on_atexit, NULL);
	return 0;
}
