// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over wqstat's parser, printers, sort, diff and interval.  The
 * input is one table, or two joined by a line "%%": each is parsed, and
 * whatever parses is printed every way, sorted by every key and diffed
 * against the other.  Built with clang -fsanitize=fuzzer,address,undefined
 * by "make fuzz"; "make test" runs it for a fixed time over tests/corpus/.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "wqstat.h"

static FILE *sink;

/* Parse @len bytes at @data into @t; 0 when they hold a table. */
static int parse(const uint8_t *data, size_t len, struct wq_table *t)
{
	struct wq_error err;
	FILE *f;
	int ret;

	wq_table_init(t);
	err.msg[0] = '\0';
	f = len ? fmemopen((void *)data, len, "r") : fopen("/dev/null", "r");
	if (!f)
		abort();
	ret = wq_parse(f, "fuzz", t, &err);
	fclose(f);
	/* a refusal says why, in one line */
	if (ret && (!err.msg[0] || strchr(err.msg, '\n')))
		abort();
	return ret;
}

/* Every output of one table, and every order of its rows. */
static void print_all(struct wq_table *t)
{
	enum wq_key k;

	wq_print_text(sink, t, 0);
	wq_print_text(sink, t, 1);
	wq_print_json(sink, t, 0);
	wq_print_prometheus(sink, t);
	wq_print_csv(sink, t, 0, ',');
	wq_write_table(sink, t);
	for (k = 0; k < KEY__NR; k++)
		wq_sort(t, k);
}

static void diff_all(const struct wq_table *a, const struct wq_table *b)
{
	struct wq_diff d;

	if (wq_diff(a, b, &d))
		return;
	wq_print_diff_text(sink, &d, 0);
	wq_print_diff_json(sink, &d, "a", "b", 0);
	wq_diff_free(&d);
}

/* The interval from @a to @b, printed every way, and written back. */
static void interval_all(const struct wq_table *a, const struct wq_table *b)
{
	struct wq_table d;

	if (wq_interval(a, b, &d))
		return;
	print_all(&d);
	wq_print_csv(sink, &d, 0, ';');
	wq_write_table(sink, &d);
	wq_table_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *sep = memmem(data, size, "\n%%\n", 4);
	size_t la = sep ? (size_t)(sep - data) + 1 : size;
	struct wq_table a, b;
	int ra, rb;

	if (!sink)
		sink = fopen("/dev/null", "w");
	ra = parse(data, la, &a);
	rb = sep ? parse(sep + 4, size - la - 3, &b) : parse(data, la, &b);
	if (!ra)
		print_all(&a);
	if (!ra && !rb) {
		diff_all(&a, &b);
		interval_all(&a, &b);
	}
	wq_table_free(&a);
	wq_table_free(&b);
	return 0;
}
