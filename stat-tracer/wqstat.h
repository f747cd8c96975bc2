/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wqstat - the model of a trace_stat/workqueues table, shared by the tool
 * and its unit tests.
 */
#ifndef WQSTAT_H
#define WQSTAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define WQSTAT_SNAPSHOT_MAGIC	"# wqstat snapshot v1"
#define WQSTAT_MAX_ROWS		(1 << 22)
#define WQSTAT_MAX_LINE		4096

/* One (workqueue, function) row; times in nanoseconds. */
struct wq_row {
	char		*workqueue;	/* as printed, "(destroyed)" included */
	char		*function;	/* the rest of the line */
	/* WQ_ID: the workqueue instance (8 hex digits), "-" for a row that
	 * stands for every instance of its name, "" if the table has none */
	char		wq_id[9];
	bool		destroyed;
	uint64_t	queued, executed, cancelled;
	uint64_t	run_total, run_avg, run_min, run_max, run_p99;
	uint64_t	lat_avg, lat_max, lat_p99;
	uint64_t	late_n, late_avg, late_max;
};

/* A whole table, from the kernel or from a snapshot. */
struct wq_table {
	/* summary lines; -1 where the source had none */
	int		enabled;
	long long	rows_used, capacity, dropped, lost_pairs, unmatched;
	long long	memory;
	double		since_reset;	/* seconds */
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
/* Parse a table or a snapshot from @f, named @name in messages; 0 or -1. */
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
const char *wq_key_names(void);
void wq_sort(struct wq_table *t, enum wq_key key);

/* Output. */
void wq_fmt_time(uint64_t ns, char *buf, size_t len);
void wq_print_text(FILE *o, const struct wq_table *t, size_t limit);
void wq_print_json(FILE *o, const struct wq_table *t, size_t limit);
void wq_print_prometheus(FILE *o, const struct wq_table *t);
void wq_json_string(FILE *o, const char *s);

/* Diff of two tables, B against A. */
struct wq_diff_row {
	const struct wq_row *a, *b;	/* either may be NULL */
	double		score;		/* time lost in B (ns), for sorting */
};
struct wq_diff {
	struct wq_diff_row *rows;
	size_t		nr;
};
int wq_diff(const struct wq_table *a, const struct wq_table *b, struct wq_diff *d);
void wq_diff_free(struct wq_diff *d);
double wq_ratio(uint64_t a, uint64_t b);
void wq_print_diff_text(FILE *o, const struct wq_diff *d, size_t limit);
void wq_print_diff_json(FILE *o, const struct wq_diff *d, const char *na,
			const char *nb, size_t limit);

#endif
