/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wqstat - the model of a trace_stat/workqueues table, shared by the tool
 * and its unit tests.
 */
#ifndef WQSTAT_H
#define WQSTAT_H

#include <stdbool.h>
#include <stdint.h>
#include <regex.h>
#include <stdio.h>

#define WQSTAT_SNAPSHOT_MAGIC	"# wqstat snapshot v1"
#define WQSTAT_MAX_ROWS		(1 << 22)
#define WQSTAT_MAX_LINE		32768	/* a row of workqueues_hist, with its buckets */

/* Exit statuses of wqstat itself (run exits with its command's). */
#define WQ_EXIT_USAGE		2	/* 1 is diff --fail-above's verdict */
#define WQ_EXIT_DATA		2

/* A time that the source cannot tell (a maximum over an interval). */
#define WQ_UNKNOWN		UINT64_MAX

/*
 * One bucket of a histogram: the samples below @le_ns (exclusive), and at
 * or above the bound of the bucket before it.  WQ_UNKNOWN as @le_ns is the
 * last, open-ended bucket.
 */
struct wq_bucket {
	uint64_t	le_ns;
	uint64_t	count;
};

/* The non-empty buckets of a histogram, in ascending order of le_ns. */
struct wq_hist {
	struct wq_bucket *b;
	size_t		nr;
	uint64_t	n;		/* samples: the sum of the counts */
	uint64_t	sum_ns;		/* their total */
};

/* One (workqueue, function) row; times in nanoseconds. */
struct wq_row {
	char		*workqueue;	/* as printed, "(destroyed)" included */
	char		*function;	/* the rest of the line */
	/* WQ_ID: the workqueue instance (8 hex digits), "-" for a row that
	 * stands for every instance of its name, "" if the table has none */
	char		wq_id[9];
	bool		destroyed;	/* the name ends in "(destroyed)" */
	bool		unloaded;	/* the function ends in "(unloaded)" */
	bool		has_hist;	/* the source had RUN_/LAT_BUCKETS */
	uint64_t	queued, executed, cancelled;
	uint64_t	run_total, run_avg, run_min, run_max, run_p99;
	uint64_t	lat_avg, lat_max, lat_p99;
	uint64_t	late_n, late_avg, late_max;
	uint64_t	lat_sum;	/* TOTAL_LAT_us, 0 if the source had none */
	/* with has_hist: the kernel's buckets, and TOTAL_LAT_us as lat.sum_ns */
	struct wq_hist	run, lat;
};

/* A whole table, from the kernel or from a snapshot. */
struct wq_table {
	/* summary lines; -1 where the source had none */
	int		enabled;
	long long	rows_used, capacity, dropped, lost_pairs, unmatched;
	long long	memory;
	long long	merged, evicted, evicted_events, resets;
	double		since_reset;	/* seconds; an interval's length if is_interval */
	bool		is_interval;	/* the differences of two tables */
	/* snapshot metadata, empty for a live table */
	char		kernel[128];
	char		time[64];
	struct wq_row	*rows;
	size_t		nr, alloc;
};

/* Where a parse failed: the message names the file and the line. */
struct wq_error {
	char		msg[512];
};

void wq_table_init(struct wq_table *t);
void wq_table_free(struct wq_table *t);
/* Free what a row owns (names, buckets). */
void wq_row_free(struct wq_row *r);
/*
 * Parse a table or a snapshot from @f, named @name in messages; 0 or -1.
 * Negative, NaN or infinite values are refused, as is any malformed line.
 */
int wq_parse(FILE *f, const char *name, struct wq_table *t, struct wq_error *err);
/* Parse one time as printed by the kernel ("123.456", microseconds). */
int wq_parse_us(const char *s, uint64_t *ns);
/* Parse one count. */
int wq_parse_count(const char *s, uint64_t *v);

/* Sorting and filtering for show. */
enum wq_key {
	KEY_TOTAL, KEY_AVG, KEY_MIN, KEY_MAX, KEY_P99, KEY_LAT, KEY_MAXLAT,
	KEY_P99LAT, KEY_LATE, KEY_QUEUED, KEY_EXECUTED, KEY_CANCELLED,
	KEY_WORKQUEUE, KEY_FUNCTION, KEY__NR
};
int wq_key_parse(const char *s, enum wq_key *key);
/* The value of a numeric @key in @r (0 for the names). */
uint64_t wq_key_value(const struct wq_row *r, enum wq_key key);
const char *wq_key_names(void);
void wq_sort(struct wq_table *t, enum wq_key key);
/*
 * @a against @b by name: by @key's name first if it is KEY_WORKQUEUE or
 * KEY_FUNCTION, then by workqueue and function, as strcmp().
 */
int wq_row_name_cmp(const struct wq_row *a, const struct wq_row *b, enum wq_key key);

/* The one error printer: "wqstat: " and the message on stderr, then exit. */
void __attribute__((noreturn, format(printf, 2, 3))) wq_die(int code, const char *fmt, ...);

/* From now on, wq_die() exits with @code whatever it is asked (run: CMD's). */
void wq_die_status(int code);

/* The live tracer, through tracefs (WQSTAT_TRACEFS, or found and mounted). */
const char *wq_tracefs(void);
/* Write @val to the control file @name; wq_die() on failure. */
void wq_control(const char *name, const char *val);
/* 0 or 1 from workqueue_stat_enabled; wq_die() on failure. */
int wq_enabled(void);
/*
 * Read trace_stat/workqueues_hist if the kernel has it, else
 * trace_stat/workqueues, whole, into @t; return the raw text (to free),
 * its length in @len.  wq_die() on failure.
 */
char *wq_read_live(struct wq_table *t, size_t *len);

/* The -w and -f filters: extended regexes on the workqueue and function. */
struct wq_filter {
	regex_t		wre, fre;
	bool		has_wq, has_fn;
};
/* Compile the filters (either may be NULL); wq_die() on a bad regex. */
void wq_filter_init(struct wq_filter *f, const char *wq_re, const char *fn_re);
/* Drop (and free) the rows of @t that do not match. */
void wq_filter_apply(const struct wq_filter *f, struct wq_table *t);
void wq_filter_free(struct wq_filter *f);

/* wqstat top: the command, with its own options; returns the exit status. */
int wq_cmd_top(int argc, char **argv);

/*
 * What happened between two tables of one tracer, @a then @b: a table whose
 * counts and totals are B's minus A's, row by row, and whose averages and
 * P99s are those of the interval (the P99s from the buckets' differences,
 * when both tables have them; else WQ_UNKNOWN).  MIN and MAX are exact only
 * for a row new in B or a MAX that grew, WQ_UNKNOWN otherwise.  Rows
 * without an execution, a queueing or a cancel in the interval are left
 * out.  If the table was reset between them, the interval is B whole.
 * 0, or -1 when out of memory.
 */
int wq_interval(const struct wq_table *a, const struct wq_table *b, struct wq_table *out);
/*
 * The P99 of @h, as the kernel estimates it: the middle of the bucket that
 * holds the sample at 99%.  The kernel's buckets are 64 ns wide up to
 * 1024 ns, then an eighth of the power of two they are in.  0 for no
 * samples; WQ_UNKNOWN if it is in the open-ended bucket.
 */
uint64_t wq_hist_p99(const struct wq_hist *h);

/* Output. */
void wq_fmt_time(uint64_t ns, char *buf, size_t len);
void wq_print_text(FILE *o, const struct wq_table *t, size_t limit);
void wq_print_json(FILE *o, const struct wq_table *t, size_t limit);
void wq_print_prometheus(FILE *o, const struct wq_table *t);
/* CSV (perf stat -x): a header line, then a line per row, fields by @sep */
/* Write @t as the kernel prints it ("-" for a time that is not known). */
void wq_write_table(FILE *o, const struct wq_table *t);
void wq_print_csv(FILE *o, const struct wq_table *t, size_t limit, char sep);
void wq_json_string(FILE *o, const char *s);
/* "KEY": a time in us (null if WQ_UNKNOWN), and ", " after it if @comma. */
void wq_json_us(FILE *o, const char *key, uint64_t ns, bool comma);
/* A row's "workqueue", "function", "wq_id" and "destroyed" members. */
void wq_json_ident(FILE *o, const struct wq_row *r);
/* The length of the valid UTF-8 sequence at @s, 0 if it is not one. */
size_t wq_utf8_len(const unsigned char *s);

/* Diff of two tables, B against A. */
struct wq_diff_row {
	const struct wq_row *a, *b;	/* either may be NULL */
	double		score;		/* time lost in B (ns), for sorting */
};
struct wq_diff {
	struct wq_diff_row *rows;
	size_t		nr;
};
/*
 * Pair the rows of @a and @b by workqueue name and function (without their
 * "(destroyed)" and "(unloaded)"), and by instance (WQ_ID) among rows that
 * share them; unless @strict, instances left over on each side (a table of
 * another boot, whose ids differ) are paired in order.  Sort-merge.  The
 * pairs go to *@out (to free), one side NULL for a row in one table only.
 */
int wq_pair(const struct wq_table *a, const struct wq_table *b, bool strict,
	    struct wq_diff_row **out, size_t *nr);
int wq_diff(const struct wq_table *a, const struct wq_table *b, struct wq_diff *d);
void wq_diff_free(struct wq_diff *d);
double wq_ratio(uint64_t a, uint64_t b);
void wq_print_diff_text(FILE *o, const struct wq_diff *d, size_t limit);
void wq_print_diff_json(FILE *o, const struct wq_diff *d, const char *na,
			const char *nb, size_t limit);

#endif
