// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the wqstat parser, diff arithmetic and outputs.  Prints TAP.
 * Built with ASan and UBSan by "make test".
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wqstat.h"

static int n, failed;

static void ok(int cond, const char *what)
{
	n++;
	if (!cond)
		failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", n, what);
}

#define HDR "QUEUED EXECUTED CANCELLED TOTAL_RUN_us AVG_RUN_us MIN_RUN_us MAX_RUN_us P99_RUN_us AVG_LAT_us MAX_LAT_us P99_LAT_us LATE_N AVG_LATE_us MAX_LATE_us WORKQUEUE FUNCTION\n"

static int parse_str(const char *s, struct wq_table *t, struct wq_error *e)
{
	FILE *f = fmemopen((void *)s, strlen(s) ? strlen(s) : 1, "r");
	int ret;

	if (!strlen(s)) {
		fclose(f);
		f = fopen("/dev/null", "r");
	}
	ret = wq_parse(f, "mem", t, e);
	fclose(f);
	return ret;
}

static char *out_of(void (*fn)(FILE *, const struct wq_table *, size_t),
		    const struct wq_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	fn(m, t, 0);
	fclose(m);
	return buf;
}

static void test_numbers(void)
{
	uint64_t v = 0;

	ok(!wq_parse_us("1.000", &v) && v == 1000, "1.000 us is 1000 ns");
	ok(!wq_parse_us("0.001", &v) && v == 1, "0.001 us is 1 ns");
	ok(!wq_parse_us("123", &v) && v == 123000, "123 us without decimals");
	ok(!wq_parse_us("1.5", &v) && v == 1500, "1.5 us is 1500 ns");
	ok(wq_parse_us("", &v) && wq_parse_us(".5", &v) && wq_parse_us("1.", &v),
	   "empty and half numbers are refused");
	ok(wq_parse_us("1.2345", &v) && wq_parse_us("-1.000", &v) && wq_parse_us("+1.000", &v),
	   "four decimals and signs are refused");
	ok(wq_parse_us("1e5", &v) && wq_parse_us("1.0x", &v) && wq_parse_us("0x10", &v),
	   "exponents and hex are refused");
	ok(wq_parse_us("18446744073709551.615", &v), "a time that overflows u64 ns is refused");
	ok(wq_parse_us("99999999999999999999999.000", &v), "a huge time is refused");
	ok(!wq_parse_count("18446744073709551615", &v) && v == UINT64_MAX, "UINT64_MAX count");
	ok(wq_parse_count("18446744073709551616", &v), "UINT64_MAX + 1 is refused");
	ok(wq_parse_count("-1", &v) && wq_parse_count("", &v) && wq_parse_count("1a", &v),
	   "negative, empty and trailing garbage counts are refused");
}

static void test_parse(void)
{
	const char *good =
		"# enabled: 1\n# rows: 2 of 1024\n# dropped: 7 events (table full)\n"
		"# unmatched: 3 executions without an enqueue\n# since reset: 2.500 s\n"
		HDR
		"5 4 1 10.000 2.500 1.000 4.000 4.000 0.500 1.000 1.000 0 0.000 0.000 events vmstat_update\n"
		"2 2 0 8.000 4.000 3.000 5.000 5.000 0.250 0.300 0.300 1 2.000 2.000 wqtest(destroyed) fn_a [wqtest]\n";
	struct wq_table t;
	struct wq_error e;

	ok(!parse_str(good, &t, &e), "a good table parses");
	ok(t.nr == 2, "two rows");
	ok(t.enabled == 1 && t.rows_used == 2 && t.capacity == 1024 && t.dropped == 7 &&
	   t.unmatched == 3 && fabs(t.since_reset - 2.5) < 1e-9, "summary lines");
	ok(t.rows[0].queued == 5 && t.rows[0].executed == 4 && t.rows[0].cancelled == 1,
	   "counts of row 1");
	ok(t.rows[0].run_total == 10000 && t.rows[0].lat_p99 == 1000, "times of row 1 in ns");
	ok(!strcmp(t.rows[1].function, "fn_a [wqtest]"), "FUNCTION is the rest of the line");
	ok(t.rows[1].destroyed && !t.rows[0].destroyed, "(destroyed) is recognised");
	ok(t.rows[1].late_n == 1 && t.rows[1].late_max == 2000, "optional lateness columns");
	wq_sort(&t, KEY_WORKQUEUE);
	ok(!strcmp(t.rows[0].workqueue, "events"), "sort by workqueue name");
	wq_sort(&t, KEY_AVG);
	ok(!strcmp(t.rows[0].workqueue, "wqtest(destroyed)"), "sort by average run, largest first");
	wq_table_free(&t);

	/* a table without the optional columns, from an older tracer */
	ok(!parse_str("QUEUED EXECUTED CANCELLED TOTAL_RUN_us AVG_RUN_us MIN_RUN_us MAX_RUN_us P99_RUN_us AVG_LAT_us MAX_LAT_us P99_LAT_us WORKQUEUE FUNCTION\n"
		      "1 1 0 1.000 1.000 1.000 1.000 1.000 0.000 0.000 0.000 w f\n", &t, &e) && t.nr == 1,
	   "the 13 required columns are enough");
	wq_table_free(&t);
}

static void expect_error(const char *input, const char *needle, const char *what)
{
	struct wq_table t;
	struct wq_error e = { "" };
	int r = parse_str(input, &t, &e);
	char buf[600];

	snprintf(buf, sizeof(buf), "%s: refused with \"%s\"", what, r ? e.msg : "(accepted)");
	ok(r && strstr(e.msg, needle), buf);
}

static void test_errors(void)
{
	char bin[64];
	size_t i;

	expect_error("", "mem: empty", "an empty file");
	expect_error("# enabled: 1\n", "no table header", "comments only");
	expect_error(HDR "1 2 3\n", "mem:2: 3 fields", "a truncated row");
	expect_error(HDR "1 1 0 1.000 1.000 1.000 1.000 1.000 0.000 0.000 0.000 0 0.000 0.000 w f",
		     "unterminated last line", "a file cut in the last line");
	expect_error(HDR "1 1 0 1.000 1.000 1.000 1.000 1.000 0.000 0.000 0.000 0 0.000 0.000 w\n",
		     "mem:2:", "a row without a function");
	expect_error(HDR "x 1 0 1.000 1.000 1.000 1.000 1.000 0.000 0.000 0.000 0 0.000 0.000 w f\n",
		     "column QUEUED: 'x' is not a count", "a word for a count");
	expect_error(HDR "99999999999999999999999 1 0 1.000 1.000 1.000 1.000 1.000 0.000 0.000 0.000 0 0.000 0.000 w f\n",
		     "column QUEUED", "a huge count");
	expect_error(HDR "1 1 0 %s%n 1.000 1.000 1.000 1.000 0.000 0.000 0.000 0 0.000 0.000 w f\n",
		     "column TOTAL_RUN_us: '%s%n'", "format characters for a time");
	expect_error("QUEUED EXECUTED WORKQUEUE FUNCTION\n", "no column CANCELLED", "a header without columns");
	expect_error("QUEUED EXECUTED CANCELLED TOTAL_RUN_us AVG_RUN_us MIN_RUN_us MAX_RUN_us P99_RUN_us AVG_LAT_us MAX_LAT_us P99_LAT_us FUNCTION WORKQUEUE\n",
		     "must end with WORKQUEUE FUNCTION", "names not last");
	expect_error("# wqstat snapshot v9\n" HDR, "is not v1", "an unknown snapshot version");
	expect_error(HDR "1\x01" "2\n", "binary data", "a control byte");
	for (i = 0; i < sizeof(bin); i++)
		bin[i] = (char)(i * 37 + 11);
	bin[sizeof(bin) - 1] = 0;
	expect_error(bin, "mem:", "random bytes");
	expect_error("# rows: 5 of 2\n" HDR, "bad row count", "more rows than capacity");
}

/* What wq_print_prometheus() writes for @t; the caller frees it. */
static char *prom_of(const struct wq_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	wq_print_prometheus(m, t);
	fclose(m);
	return buf;
}

static void test_output(void)
{
	const char *odd =
		HDR "1 1 0 1.000 1.000 1.000 1.000 1.000 0.000 0.000 0.000 0 0.000 0.000 w\"q\\ f%s%n \"x\"\n";
	struct wq_table t;
	struct wq_error e;
	char buf[32], *s;

	wq_fmt_time(999999, buf, sizeof(buf));
	ok(!strcmp(buf, "999.999us"), "999999 ns prints as 999.999us");
	wq_fmt_time(1000000, buf, sizeof(buf));
	ok(!strcmp(buf, "1.000ms"), "1 ms prints as 1.000ms");
	wq_fmt_time(2500000000ULL, buf, sizeof(buf));
	ok(!strcmp(buf, "2.500s"), "2.5 s prints as 2.500s");

	ok(!parse_str(odd, &t, &e), "quotes, backslashes and % in names parse");
	s = out_of(wq_print_json, &t);
	ok(strstr(s, "\"workqueue\": \"w\\\"q\\\\\"") != NULL, "JSON escapes quote and backslash");
	ok(strstr(s, "\"function\": \"f%s%n \\\"x\\\"\"") != NULL, "JSON keeps % literally");
	ok(strstr(s, "\"total_run_us\": 1.000") != NULL, "JSON times in us");
	free(s);
	{
		/* a stray byte, a truncated sequence, an overlong '/', a
		 * surrogate: each U+FFFD; a valid e-acute and euro sign kept */
		const char *names[] = { "a\xff" "b", "c\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xc3\xa9\xe2\x82\xac" };
		const char *want[] = { "\"a\\ufffdb\"", "\"c\\ufffd\"", "\"\\ufffd\\ufffd\"",
				       "\"\\ufffd\\ufffd\\ufffd\"", "\"\xc3\xa9\xe2\x82\xac\"" };
		unsigned int i, good = 0;

		for (i = 0; i < 5; i++) {
			char *js = NULL;
			size_t jl = 0;
			FILE *m = open_memstream(&js, &jl);

			wq_json_string(m, names[i]);
			fclose(m);
			good += !strcmp(js, want[i]);
			free(js);
		}
		ok(good == 5, "JSON: bytes that are not UTF-8 become U+FFFD, valid UTF-8 is kept");
	}
	{
		char *buf2 = prom_of(&t);

		ok(strstr(buf2, "wqstat_executed_total{workqueue=\"w\\\"q\\\\\",function=\"f%s%n \\\"x\\\"\","
			  "destroyed=\"false\",unloaded=\"false\"} 1\n") != NULL,
		   "Prometheus label escaping and value");
		ok(strstr(buf2, "wqstat_run_seconds_sum{") && strstr(buf2, "} 0.000001000\n"),
		   "Prometheus seconds");
		free(buf2);
	}
	wq_table_free(&t);
}

static void test_diff(void)
{
	const char *a =
		HDR "10 10 0 10.000 1.000 1.000 1.000 1.000 2.000 2.000 2.000 0 0.000 0.000 q slower\n"
		"10 10 0 10.000 1.000 1.000 1.000 1.000 2.000 2.000 2.000 0 0.000 0.000 q same\n"
		"5 5 0 5.000 1.000 1.000 1.000 1.000 1.000 1.000 1.000 0 0.000 0.000 q gone\n"
		"5 5 0 5.000 1.000 1.000 1.000 1.000 1.000 1.000 1.000 0 0.000 0.000 dq alive\n";
	const char *b =
		HDR "12 12 1 48.000 4.000 1.000 8.000 8.000 2.000 2.000 2.000 0 0.000 0.000 q slower\n"
		"10 10 0 10.000 1.000 1.000 1.000 1.000 2.000 2.000 2.000 0 0.000 0.000 q same\n"
		"3 3 0 3.000 1.000 1.000 1.000 1.000 1.000 1.000 1.000 0 0.000 0.000 q new\n"
		"5 5 0 5.000 1.000 1.000 1.000 1.000 1.000 1.000 1.000 0 0.000 0.000 dq(destroyed) alive\n";
	struct wq_table ta, tb;
	struct wq_error e;
	struct wq_diff d;

	ok(!parse_str(a, &ta, &e) && !parse_str(b, &tb, &e), "two tables for a diff");
	ok(!wq_diff(&ta, &tb, &d) && d.nr == 5, "5 diff rows (3 matched, 1 new, 1 gone)");
	ok(d.rows[0].a && d.rows[0].b && !strcmp(d.rows[0].b->function, "slower"),
	   "the worst regression comes first");
	ok(fabs(d.rows[0].score - 36000.0) < 1e-6, "its time lost: 12 runs x (4 us - 1 us) = 36 us");
	ok(fabs(wq_ratio(ta.rows[0].run_avg, tb.rows[0].run_avg) - 4.0) < 1e-9, "avg run ratio 4");
	ok(d.rows[3].b && !d.rows[3].a && !strcmp(d.rows[3].b->function, "new"), "only in B after the matched rows");
	ok(d.rows[4].a && !d.rows[4].b && !strcmp(d.rows[4].a->function, "gone"), "only in A last");
	ok(isinf(wq_ratio(0, 5)) && wq_ratio(0, 0) == 1.0 && wq_ratio(4, 2) == 0.5, "ratio edge cases");
	{
		size_t i;
		int matched = 0;

		for (i = 0; i < d.nr; i++)
			if (d.rows[i].a && d.rows[i].b && !strcmp(d.rows[i].a->function, "alive"))
				matched = 1;
		ok(matched, "a row matches its destroyed workqueue's row");
	}
	wq_diff_free(&d);
	wq_table_free(&ta);
	wq_table_free(&tb);
}

#define HDR_ID "QUEUED EXECUTED CANCELLED TOTAL_RUN_us AVG_RUN_us MIN_RUN_us MAX_RUN_us P99_RUN_us AVG_LAT_us MAX_LAT_us P99_LAT_us LATE_N AVG_LATE_us MAX_LATE_us WQ_ID WORKQUEUE FUNCTION\n"
#define ROW_ID(n, id, wq, fn) #n " " #n " 0 1.000 1.000 1.000 1.000 1.000 0.000 0.000 0.000 0 0.000 0.000 " id " " wq " " fn "\n"

/* Two live workqueues of one name, told apart by WQ_ID everywhere. */
static void test_wq_id(void)
{
	const char *a = HDR_ID ROW_ID(3, "0badcafe", "ext4-rsv", "f [ext4]")
		ROW_ID(5, "1234abcd", "ext4-rsv", "f [ext4]")
		ROW_ID(7, "-", "tmp(destroyed)", "g");
	const char *b = HDR_ID ROW_ID(5, "1234abcd", "ext4-rsv", "f [ext4]")
		ROW_ID(4, "0badcafe", "ext4-rsv", "f [ext4]");
	struct wq_table ta, tb;
	struct wq_error e;
	struct wq_diff d;
	char *s;
	size_t i;

	ok(!parse_str(a, &ta, &e) && ta.nr == 3, "a table with WQ_ID parses");
	ok(!strcmp(ta.rows[0].wq_id, "0badcafe") && !strcmp(ta.rows[2].wq_id, "-"),
	   "WQ_ID kept per row, - for a merged row");
	s = out_of(wq_print_json, &ta);
	ok(strstr(s, "\"wq_id\": \"0badcafe\"") && strstr(s, "\"wq_id\": \"-\""),
	   "JSON carries wq_id");
	free(s);
	s = out_of(wq_print_text, &ta);
	ok(strstr(s, "ext4-rsv@0badcafe") && strstr(s, "ext4-rsv@1234abcd") &&
	   !strstr(s, "tmp(destroyed)@"), "text names twins NAME@WQ_ID, and only them");
	free(s);
	{
		char *buf = prom_of(&ta);

		ok(strstr(buf, "wqstat_executed_total{workqueue=\"ext4-rsv\",function=\"f [ext4]\","
			  "wq_id=\"1234abcd\",destroyed=\"false\",unloaded=\"false\"} 5\n") != NULL,
		   "Prometheus has a wq_id label");
		free(buf);
	}
	ok(!parse_str(b, &tb, &e), "the second table");
	ok(!wq_diff(&ta, &tb, &d), "diff of two tables with twins");
	for (i = 0; i < d.nr; i++)
		if (d.rows[i].a && d.rows[i].b && d.rows[i].a->executed != (d.rows[i].b->executed == 4 ? 3 : 5))
			break;
	ok(i == d.nr, "each twin matches its own instance (3 -> 4, 5 -> 5)");
	wq_diff_free(&d);
	wq_table_free(&tb);
	wq_table_free(&ta);
	ok(parse_str(HDR_ID ROW_ID(1, "xyz", "q", "f"), &ta, &e) &&
	   strstr(e.msg, "WQ_ID"), "a bad WQ_ID is an error naming the column");
}

#define HDRH "QUEUED EXECUTED CANCELLED TOTAL_RUN_us AVG_RUN_us MIN_RUN_us MAX_RUN_us P99_RUN_us AVG_LAT_us MAX_LAT_us P99_LAT_us LATE_N AVG_LATE_us MAX_LATE_us TOTAL_LAT_us RUN_BUCKETS LAT_BUCKETS WQ_ID WORKQUEUE FUNCTION\n"

/* The row of @t with @fn, or NULL. */
static const struct wq_row *row_of(const struct wq_table *t, const char *fn)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (!strcmp(t->rows[i].function, fn))
			return &t->rows[i];
	return NULL;
}

/*
 * Two reads of one tracer: 100 more runs of 4 ms for fn (the interval's P99
 * is the middle of their bucket, [3932160, 4194304) ns); an instance of wqd
 * destroyed and merged into the row of its name, which also ran 3 times;
 * a new row; then a reset between two reads.
 */
static void test_interval(void)
{
	static const char a_txt[] = "# resets: 1\n# since reset: 10.000 s\n# dropped: 4 events\n" HDRH
		"100 100 0 100000.000 1000.000 900.000 1100.000 1015.808 10.000 20.000 19.968 0 0.000 0.000 1000.000 1048576:99,1114112:1 20480:100 aaaaaaaa wq fn\n"
		"5 5 0 50.000 10.000 9.000 11.000 11.000 1.000 1.000 1.000 0 0.000 0.000 5.000 12288:5 1024:5 bbbbbbbb wqd fn2\n"
		"10 10 0 100.000 10.000 9.000 11.000 11.000 1.000 1.000 1.000 0 0.000 0.000 10.000 12288:10 1024:10 - wqd(destroyed) fn2\n"
		"1 1 0 1.000 1.000 1.000 1.000 1.000 1.000 1.000 1.000 0 0.000 0.000 1.000 1024:1 1024:1 dddddddd idle fn4\n";
	static const char b_txt[] = "# resets: 1\n# since reset: 15.000 s\n# dropped: 6 events\n" HDRH
		"200 200 0 500000.000 2500.000 900.000 4100.000 4063.232 10.000 20.000 19.968 0 0.000 0.000 2000.000 1048576:99,1114112:1,4194304:100 20480:200 aaaaaaaa wq fn\n"
		"18 18 0 180.000 10.000 9.000 11.000 11.000 1.000 1.000 1.000 0 0.000 0.000 18.000 12288:18 1024:18 - wqd(destroyed) fn2\n"
		"7 7 0 70.000 10.000 10.000 10.000 10.000 2.000 2.000 2.000 0 0.000 0.000 14.000 10240:7 2048:7 cccccccc new fn3\n"
		"1 1 0 1.000 1.000 1.000 1.000 1.000 1.000 1.000 1.000 0 0.000 0.000 1.000 1024:1 1024:1 dddddddd idle fn4\n";
	struct wq_table a, b, d;
	struct wq_error e;
	const struct wq_row *r;

	if (parse_str(a_txt, &a, &e) || parse_str(b_txt, &b, &e)) {
		ok(0, e.msg);
		return;
	}
	ok(a.rows[0].has_hist && a.rows[0].run.nr == 2 && a.rows[0].run.n == 100 &&
	   a.rows[0].lat.sum_ns == 1000000, "RUN_BUCKETS, LAT_BUCKETS and TOTAL_LAT_us parsed");
	ok(wq_hist_p99(&a.rows[0].run) == 1015808, "the P99 of the buckets: the middle of [983040, 1048576) ns");
	ok(!wq_interval(&a, &b, &d), "the interval of two reads");
	ok(d.is_interval && d.since_reset == 5.0 && d.dropped == 2,
	   "its length is 5 s by the kernel's clock, 2 events dropped in it");
	ok(d.nr == 3 && !row_of(&d, "fn4"), "3 rows: a row without an event in the interval is left out");
	r = row_of(&d, "fn");
	ok(r && r->executed == 100 && r->run_total == 400000000ULL && r->run_avg == 4000000,
	   "fn: 100 runs, 400 ms, 4 ms on average");
	ok(r && r->run_p99 == 4063232, "fn: the interval's P99 from the buckets' differences (4063232 ns)");
	ok(r && r->run_min == WQ_UNKNOWN && r->run_max == 4100000 && r->lat_max == WQ_UNKNOWN,
	   "fn: MAX known where it grew, MIN and the latency's MAX not");
	ok(r && r->lat_avg == 10000 && r->lat_p99 == 19456,
	   "fn: latency from TOTAL_LAT_us (10 us) and the buckets (the middle of [18432, 20480) ns)");
	r = row_of(&d, "fn2");
	ok(r && r->executed == 3 && r->run_total == 30000 && r->run.n == 3,
	   "the merged row: 3 runs, once the destroyed instance merged into it is counted on both sides");
	r = row_of(&d, "fn3");
	ok(r && r->executed == 7 && r->run_min == 10000 && r->run_p99 == 10000,
	   "a row new in the interval: all of it, MIN and P99 included");
	wq_table_free(&d);
	/* a reset in between: the interval is B whole */
	b.resets = 2;
	ok(!wq_interval(&a, &b, &d) && d.nr == 4 && row_of(&d, "fn")->executed == 200 &&
	   d.since_reset == 15.0, "after a reset, the interval is the second read whole");
	wq_table_free(&d);
	wq_table_free(&a);
	wq_table_free(&b);
}

int main(void)
{
	test_numbers();
	test_parse();
	test_errors();
	test_output();
	test_diff();
	test_wq_id();
	test_interval();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
