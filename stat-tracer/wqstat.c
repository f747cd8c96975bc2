// SPDX-License-Identifier: GPL-2.0
/*
 * wqstat - run, snapshot and compare workloads with the workqueue stat
 * tracer (trace_stat/workqueues of CONFIG_WORKQUEUE_TRACER).
 *
 * Every error goes through wq_die(): one line on stderr naming what is
 * wrong, and exit 2 (1 is diff's verdict: a regression).  Output is built in memory and written only when complete,
 * so a failure never leaves half a table on stdout.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wqstat.h"


#ifndef WQSTAT_VERSION
#define WQSTAT_VERSION "2"
#endif

static const char *usage_text =
"usage: wqstat [COMMAND] [OPTIONS] [OPERANDS]\n"
"\n"
"Commands:\n"
"  show [-n N] [-s KEY] [-w RE] [-f RE] [-i FILE] [-j|-p|-x SEP]\n"
"        print the table (the default command)\n"
"  enable | disable | reset\n"
"        turn the tracer on or off, or clear its table\n"
"  run [-o FILE] [--save FILE] [-n N] [-s KEY] [-w RE] [-f RE] [-j|-x SEP] -- CMD [ARGS...]\n"
"        run CMD and report what the work functions did while it ran: the\n"
"        table before and after, and their difference.  The tracer is enabled\n"
"        only if it was off, and left as it was found on any way out; the\n"
"        table is never reset.  The report goes to stderr, or to -o FILE;\n"
"        --save writes the difference as a snapshot, for diff.  Exits with\n"
"        CMD's status (128+N if a signal N killed it)\n"
"  snapshot -o FILE\n"
"        write the table, the kernel release and the time to FILE\n"
"  diff [-n N] [-s KEY] [-w RE] [-f RE] [-j] [--fail-above COL=RATIO]...\n"
"       [--min-executed N] A B\n"
"        compare snapshot B against snapshot A, row by row; rows sorted by the\n"
"        time lost in B (executions x growth of average run + latency), or by\n"
"        the growth of KEY, worst first\n"
"  top [-d SECONDS] [-n N] [-s KEY] [-w RE] [-f RE] [-c COUNT] [-b] [-I MS] [-j]\n"
"        a live view of each interval, worst first (wqstat top -h)\n"
"\n"
"Options:\n"
"  -n, --top N          show the first N rows only (0: all, the default)\n"
"  -s, --sort KEY       sort by KEY, one of: %s\n"
"                       (numbers largest first; default total)\n"
"  -w, --workqueue RE   only rows whose workqueue matches the extended regex RE\n"
"  -f, --function RE    only rows whose function matches RE\n"
"  -i, --input FILE     show a snapshot file instead of the live table\n"
"  -o, --output FILE    snapshot: the file to write; run: the report's file\n"
"                       (checked before CMD starts)\n"
"      --save FILE      run: also write what happened as a snapshot file\n"
"  -j, --json           JSON instead of text\n"
"  -p, --prometheus     Prometheus text format, for node_exporter's textfile\n"
"                       collector (show only)\n"
"  -x, --field-separator SEP\n"
"                       CSV with the one-character separator SEP, a header line\n"
"                       and a line per row, as perf stat -x (show, run)\n"
"      --fail-above COL=RATIO\n"
"                       diff: exit 1 if a row in both tables has COL in B more\n"
"                       than RATIO times A's (repeatable).  COL is one of:\n"
"                       %s\n"
"      --min-executed N diff: judge only rows with at least N executions in\n"
"                       both A and B (default 1)\n"
"  -V, --version        print the version\n"
"  -h, --help           this help\n"
"\n"
"Options may come before or after the operands (not for run, where CMD's\n"
"own come after it).\n"
"\n"
"Environment: WQSTAT_TRACEFS names the tracefs directory (default: found in\n"
"/proc/mounts, mounted at /sys/kernel/tracing if needed and permitted).\n"
"Exit status: 0 ok; 1 diff found a row beyond --fail-above; 2 an error (a\n"
"line 'wqstat: ...' on stderr says what).  run exits with CMD's status, or\n"
"with 2 when wqstat fails before CMD starts, or when CMD exited 0 but its\n"
"report could not be written; 126 and 127 when CMD cannot be run.\n";

/* The columns --fail-above can judge, with the row field each reads. */
static const struct {
	const char *name;
	size_t off;
} gate_cols[] = {
	{ "avg_run", offsetof(struct wq_row, run_avg) },
	{ "p99_run", offsetof(struct wq_row, run_p99) },
	{ "max_run", offsetof(struct wq_row, run_max) },
	{ "total_run", offsetof(struct wq_row, run_total) },
	{ "avg_lat", offsetof(struct wq_row, lat_avg) },
	{ "p99_lat", offsetof(struct wq_row, lat_p99) },
	{ "max_lat", offsetof(struct wq_row, lat_max) },
	{ "max_late", offsetof(struct wq_row, late_max) },
	{ "queued", offsetof(struct wq_row, queued) },
	{ "executed", offsetof(struct wq_row, executed) },
	{ "cancelled", offsetof(struct wq_row, cancelled) },
};
#define NR_GATE_COLS (sizeof(gate_cols) / sizeof(gate_cols[0]))

/* One --fail-above. */
struct gate {
	size_t col;		/* index in gate_cols */
	double ratio;
};

struct opts {
	size_t top;
	enum wq_key key;
	bool key_set;
	const char *wq_re, *fn_re, *input, *output, *save;
	bool json, prometheus;
	char sep;			/* -x: CSV with this separator */
	struct gate gates[16];
	size_t nr_gates;
	uint64_t min_executed;
};

enum { OPT_SAVE = 256, OPT_FAIL_ABOVE, OPT_MIN_EXECUTED };

static const struct option long_opts[] = {
	{ "top", required_argument, NULL, 'n' },
	{ "sort", required_argument, NULL, 's' },
	{ "workqueue", required_argument, NULL, 'w' },
	{ "function", required_argument, NULL, 'f' },
	{ "input", required_argument, NULL, 'i' },
	{ "output", required_argument, NULL, 'o' },
	{ "save", required_argument, NULL, OPT_SAVE },
	{ "json", no_argument, NULL, 'j' },
	{ "prometheus", no_argument, NULL, 'p' },
	{ "field-separator", required_argument, NULL, 'x' },
	{ "fail-above", required_argument, NULL, OPT_FAIL_ABOVE },
	{ "min-executed", required_argument, NULL, OPT_MIN_EXECUTED },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The names of the columns --fail-above takes, for the help and errors. */
static const char *gate_names(void)
{
	static char buf[256];
	size_t i, l = 0;

	for (i = 0; i < NR_GATE_COLS && l < sizeof(buf); i++)
		l += snprintf(buf + l, sizeof(buf) - l, "%s%s", i ? " " : "", gate_cols[i].name);
	return buf;
}

/* A count for option @opt of @cmd, or wq_die(). */
static uint64_t parse_count_opt(const char *cmd, const char *opt, const char *arg)
{
	uint64_t v;

	if (wq_parse_count(arg, &v))
		wq_die(WQ_EXIT_USAGE, "%s: %s takes a count, not '%s'", cmd, opt, arg);
	return v;
}

/* --fail-above COL=RATIO into @o. */
static void parse_gate(const char *cmd, const char *arg, struct opts *o)
{
	const char *eq = strchr(arg, '=');
	char *end;
	double r;
	size_t i;

	if (!eq)
		wq_die(WQ_EXIT_USAGE, "%s: --fail-above takes COL=RATIO, not '%s'", cmd, arg);
	for (i = 0; i < NR_GATE_COLS; i++)
		if (strlen(gate_cols[i].name) == (size_t)(eq - arg) &&
		    !strncmp(arg, gate_cols[i].name, eq - arg))
			break;
	if (i == NR_GATE_COLS)
		wq_die(WQ_EXIT_USAGE, "%s: --fail-above: unknown column '%.*s'; one of: %s", cmd,
		       (int)(eq - arg), arg, gate_names());
	errno = 0;
	r = strtod(eq + 1, &end);
	if (errno || end == eq + 1 || *end || !isfinite(r) || r <= 0)
		wq_die(WQ_EXIT_USAGE, "%s: --fail-above %.*s: '%s' is not a positive ratio", cmd,
		       (int)(eq - arg), arg, eq + 1);
	if (o->nr_gates == sizeof(o->gates) / sizeof(o->gates[0]))
		wq_die(WQ_EXIT_USAGE, "%s: more than %zu --fail-above", cmd, o->nr_gates);
	o->gates[o->nr_gates].col = i;
	o->gates[o->nr_gates++].ratio = r;
}

/*
 * Parse the options of @cmd; @allowed lists the short options it takes
 * (the long-only ones by their letters: S --save, F --fail-above, M
 * --min-executed).  Options and operands may be mixed unless @in_order
 * (run: what follows the command is the command's); the operands are left
 * at the end of argv, from the returned index on.
 */
static int parse_opts(int argc, char **argv, const char *cmd,
		      const char *allowed, bool in_order, struct opts *o)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->key = KEY_TOTAL;
	o->min_executed = 1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, in_order ? "+:n:s:w:f:i:o:jpx:Vh" : ":n:s:w:f:i:o:jpx:Vh",
				long_opts, NULL)) != -1) {
		int letter = c == OPT_SAVE ? 'S' : c == OPT_FAIL_ABOVE ? 'F' :
			     c == OPT_MIN_EXECUTED ? 'M' : c;

		if (c == 'h') {
			printf(usage_text, wq_key_names(), gate_names());
			exit(0);
		}
		if (c == 'V') {
			printf("wqstat %s\n", WQSTAT_VERSION);
			exit(0);
		}
		if (c == '?')
			wq_die(WQ_EXIT_USAGE, "%s: unknown option '%s' (see wqstat --help)", cmd,
			       argv[optind - 1]);
		if (c == ':')
			wq_die(WQ_EXIT_USAGE, "%s: option '%s' needs a value", cmd, argv[optind - 1]);
		if (!strchr(allowed, letter))
			wq_die(WQ_EXIT_USAGE, "%s: option '%s' does not apply (see wqstat --help)",
			       cmd, argv[optind - 1]);
		switch (c) {
		case 'n':
			o->top = parse_count_opt(cmd, "-n", optarg);
			break;
		case 's':
			if (wq_key_parse(optarg, &o->key))
				wq_die(WQ_EXIT_USAGE, "%s: unknown sort key '%s'; one of: %s", cmd,
				       optarg, wq_key_names());
			o->key_set = true;
			break;
		case 'w': o->wq_re = optarg; break;
		case 'f': o->fn_re = optarg; break;
		case 'i': o->input = optarg; break;
		case 'o': o->output = optarg; break;
		case OPT_SAVE: o->save = optarg; break;
		case 'j': o->json = true; break;
		case 'p': o->prometheus = true; break;
		case 'x':
			if (strlen(optarg) != 1 || optarg[0] == '"' || optarg[0] == '\n' ||
			    optarg[0] == '\r')
				wq_die(WQ_EXIT_USAGE, "%s: -x takes one character (not a quote or a line end), not '%s'",
				       cmd, optarg);
			o->sep = optarg[0];
			break;
		case OPT_FAIL_ABOVE:
			parse_gate(cmd, optarg, o);
			break;
		case OPT_MIN_EXECUTED:
			o->min_executed = parse_count_opt(cmd, "--min-executed", optarg);
			break;
		}
	}
	if (o->json + o->prometheus + !!o->sep > 1)
		wq_die(WQ_EXIT_USAGE, "%s: --json, --prometheus and -x exclude each other", cmd);
	return optind;
}

/* Load a snapshot file. */
static void read_file(const char *path, struct wq_table *t)
{
	struct wq_error err;
	FILE *f = fopen(path, "r");

	if (!f)
		wq_die(WQ_EXIT_DATA, "%s: cannot open: %s", path, strerror(errno));
	if (wq_parse(f, path, t, &err))
		wq_die(WQ_EXIT_DATA, "%s", err.msg);
	fclose(f);
}

/* Keep the rows whose names match the filters. */
static void filter(struct wq_table *t, const struct opts *o)
{
	struct wq_filter f;

	wq_filter_init(&f, o->wq_re, o->fn_re);
	wq_filter_apply(&f, t);
	wq_filter_free(&f);
}

/* Write @len bytes of @buf to @f in full, or fail naming @what. */
static void emit_to(FILE *f, const char *what, char *buf, size_t len)
{
	if (len && fwrite(buf, 1, len, f) != len)
		wq_die(WQ_EXIT_DATA, "writing %s failed: %s", what, strerror(errno));
	if (fflush(f))
		wq_die(WQ_EXIT_DATA, "writing %s failed: %s", what, strerror(errno));
	free(buf);
}

/* Write @buf to stdout in full, or fail. */
static void emit(char *buf, size_t len)
{
	emit_to(stdout, "the output", buf, len);
}

/* Filter, sort and format @t per the options, in memory; *@len bytes. */
static char *format_table(struct wq_table *t, const struct opts *o, size_t *len)
{
	char *buf = NULL;
	FILE *mem = open_memstream(&buf, len);

	if (!mem)
		wq_die(WQ_EXIT_DATA, "out of memory");
	filter(t, o);
	wq_sort(t, o->key);
	if (o->json)
		wq_print_json(mem, t, o->top);
	else if (o->prometheus)
		wq_print_prometheus(mem, t);
	else if (o->sep)
		wq_print_csv(mem, t, o->top, o->sep);
	else
		wq_print_text(mem, t, o->top);
	if (fclose(mem))
		wq_die(WQ_EXIT_DATA, "out of memory");
	return buf;
}

/* Print @t per the options, all at once. */
static void print_table(struct wq_table *t, const struct opts *o)
{
	size_t len = 0;
	char *buf = format_table(t, o, &len);

	emit(buf, len);
}

/*
 * Write a snapshot file, whole or not at all: the magic line, the kernel
 * and the time, then @len bytes of table at @raw, or @t as the kernel
 * prints tables when @raw is NULL.
 */
static void write_snapshot(const char *path, const char *raw, size_t len,
			   const struct wq_table *t)
{
	char tmp[4200], when[64];
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;
	FILE *f;

	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(tmp, sizeof(tmp), "%s.tmp%d", path, (int)getpid());
	f = fopen(tmp, "w");
	if (!f)
		wq_die(WQ_EXIT_DATA, "%s: cannot create: %s", path, strerror(errno));
	fprintf(f, "%s\n# kernel: %s\n# time: %s\n", WQSTAT_SNAPSHOT_MAGIC, u.release, when);
	if (raw)
		fwrite(raw, 1, len, f);
	else
		wq_write_table(f, t);
	if (ferror(f) | fclose(f)) {
		unlink(tmp);
		wq_die(WQ_EXIT_DATA, "%s: write failed: %s", path, strerror(errno));
	}
	if (rename(tmp, path)) {
		unlink(tmp);
		wq_die(WQ_EXIT_DATA, "%s: cannot rename into place: %s", path, strerror(errno));
	}
}

static int cmd_show(int argc, char **argv)
{
	struct wq_table t;
	struct opts o;
	int i = parse_opts(argc, argv, "show", "nswfijpx", false, &o);

	if (i < argc)
		wq_die(WQ_EXIT_USAGE, "show: unexpected argument '%s'", argv[i]);
	if (o.input)
		read_file(o.input, &t);
	else
		free(wq_read_live(&t, &(size_t){ 0 }));
	print_table(&t, &o);
	wq_table_free(&t);
	return 0;
}

static int cmd_control(int argc, char **argv, const char *name, const char *val)
{
	struct opts o;
	int i = parse_opts(argc, argv, argv[0], "", false, &o);

	if (i < argc)
		wq_die(WQ_EXIT_USAGE, "%s: unexpected argument '%s'", argv[0], argv[i]);
	wq_control(name, val);
	return 0;
}

static int cmd_snapshot(int argc, char **argv)
{
	struct wq_table t;
	struct opts o;
	char *raw;
	size_t len;
	int i = parse_opts(argc, argv, "snapshot", "o", false, &o);

	if (i < argc)
		wq_die(WQ_EXIT_USAGE, "snapshot: unexpected argument '%s'", argv[i]);
	if (!o.output)
		wq_die(WQ_EXIT_USAGE, "snapshot: -o FILE is required");
	raw = wq_read_live(&t, &len);
	write_snapshot(o.output, raw, len, NULL);
	free(raw);
	wq_table_free(&t);
	return 0;
}

/*
 * run: the signals whose default is to end the process.  While CMD runs,
 * wqstat catches them, passes on to CMD those sent to wqstat alone, and
 * goes on waiting for CMD; then it restores the tracer and reports.  A
 * signal from the terminal (^C, ^\, a hangup) already reached CMD, which
 * is in the same process group, and is not sent twice.
 */
static const int run_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE,
	SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
};
#define NR_RUN_SIGNALS (sizeof(run_signals) / sizeof(run_signals[0]))

static volatile pid_t run_child;	/* CMD, once forked */
static bool run_enabled;		/* run turned the tracer on */

/* The handler of run_signals: pass a signal sent to wqstat on to CMD. */
static void run_forward(int sig, siginfo_t *info, void *uctx)
{
	int e = errno;

	(void)uctx;
	if (run_child > 0 && info->si_code != SI_KERNEL)
		kill(run_child, sig);
	errno = e;
}

/* atexit: leave the tracer as run found it, whatever way wqstat ends. */
static void run_restore(void)
{
	char path[4200];
	int fd;

	if (!run_enabled)
		return;
	run_enabled = false;
	snprintf(path, sizeof(path), "%s/workqueue_stat_enabled", wq_tracefs());
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, "0", 1) != 1)
		fprintf(stderr, "wqstat: run: could not turn the tracer back off: %s: %s\n",
			path, strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* Check that @path can be written by creating it; NULL-safe. */
static FILE *open_output(const char *path)
{
	FILE *f;

	if (!path)
		return NULL;
	f = fopen(path, "w");
	if (!f)
		wq_die(WQ_EXIT_DATA, "run: -o %s: cannot create: %s", path, strerror(errno));
	return f;
}

/* Check that a snapshot can be written at @path, before CMD runs. */
static void check_save(const char *path)
{
	char tmp[4200];
	int fd;

	if (!path)
		return;
	snprintf(tmp, sizeof(tmp), "%s.tmp%d", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		wq_die(WQ_EXIT_DATA, "run: --save %s: cannot create: %s", path, strerror(errno));
	close(fd);
	unlink(tmp);
}

static int cmd_run(int argc, char **argv)
{
	struct sigaction sa = { .sa_sigaction = run_forward, .sa_flags = SA_SIGINFO };
	struct sigaction old[NR_RUN_SIGNALS];
	struct wq_table a, b, d;
	sigset_t block, saved;
	struct opts o;
	int i = parse_opts(argc, argv, "run", "onswfjxS", true, &o);
	int status, code, saved_errno;
	size_t k, len = 0;
	FILE *report;
	char *buf;
	pid_t pid;

	if (i >= argc)
		wq_die(WQ_EXIT_USAGE, "run: no command (wqstat run [OPTIONS] -- CMD [ARGS...])");
	/* everything that can fail is tried before CMD starts */
	report = open_output(o.output);
	check_save(o.save);
	free(wq_read_live(&a, &len));

	sigemptyset(&block);
	for (k = 0; k < NR_RUN_SIGNALS; k++)
		sigaddset(&block, run_signals[k]);
	/* from here to the fork, a signal waits: then CMD is there to get it */
	sigprocmask(SIG_BLOCK, &block, &saved);
	atexit(run_restore);
	if (!wq_enabled()) {
		wq_control("workqueue_stat_enabled", "1");
		run_enabled = true;
	}
	sigemptyset(&sa.sa_mask);
	for (k = 0; k < NR_RUN_SIGNALS; k++) {
		sigaction(run_signals[k], NULL, &old[k]);
		/* ignored, as for a background job of a script: CMD ignores it too */
		if (old[k].sa_handler != SIG_IGN)
			sigaction(run_signals[k], &sa, NULL);
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		wq_die(WQ_EXIT_DATA, "run: fork failed: %s", strerror(errno));
	if (!pid) {
		for (k = 0; k < NR_RUN_SIGNALS; k++)
			sigaction(run_signals[k], &old[k], NULL);
		sigprocmask(SIG_SETMASK, &saved, NULL);
		execvp(argv[i], argv + i);
		saved_errno = errno;
		fprintf(stderr, "wqstat: run: cannot run '%s': %s\n", argv[i], strerror(saved_errno));
		_exit(saved_errno == ENOENT ? 127 : 126);
	}
	run_child = pid;
	sigprocmask(SIG_SETMASK, &saved, NULL);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			wq_die(WQ_EXIT_DATA, "run: waitpid failed: %s", strerror(errno));
	}
	run_child = 0;
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	/* from here on, a failure of wqstat must not hide CMD's failure */
	if (code)
		wq_die_status(code);
	run_restore();
	for (k = 0; k < NR_RUN_SIGNALS; k++)
		sigaction(run_signals[k], &old[k], NULL);

	free(wq_read_live(&b, &len));
	if (a.resets >= 0 && b.resets != a.resets)
		fprintf(stderr, "wqstat: run: note: the table was reset while '%s' ran; the report starts at the reset\n",
			argv[i]);
	if (wq_interval(&a, &b, &d))
		wq_die(WQ_EXIT_DATA, "out of memory");
	if (o.save)
		write_snapshot(o.save, NULL, 0, &d);
	buf = format_table(&d, &o, &len);
	if (report) {
		emit_to(report, o.output, buf, len);
		if (fclose(report))
			wq_die(WQ_EXIT_DATA, "writing %s failed: %s", o.output,
			       strerror(errno));
	} else {
		emit_to(stderr, "the report", buf, len);
	}
	wq_table_free(&a);
	wq_table_free(&b);
	wq_table_free(&d);
	return code;
}

/* The growth of @key from A to B in a diff row, for -s. */
static double growth(const struct wq_diff_row *r, enum wq_key key)
{
	static const struct wq_row zero;
	const struct wq_row *a = r->a ? r->a : &zero, *b = r->b ? r->b : &zero;

	return (double)wq_key_value(b, key) - (double)wq_key_value(a, key);
}

static enum wq_key diff_key;

/* qsort: diff rows by the growth of diff_key, largest first (names A-Z). */
static int diff_key_cmp(const void *p, const void *q)
{
	const struct wq_diff_row *x = p, *y = q;
	double gx = growth(x, diff_key), gy = growth(y, diff_key);

	/* the names have no growth (0): they sort by name alone */
	if (gx != gy)
		return gx > gy ? -1 : 1;
	return wq_row_name_cmp(x->b ? x->b : x->a, y->b ? y->b : y->a, diff_key);
}

/*
 * --fail-above: report on stderr every row of both tables, with at least
 * --min-executed executions in each, whose column grew beyond its ratio;
 * the number of such rows.
 */
static size_t judge(const struct wq_diff *d, const struct opts *o)
{
	size_t i, g, bad = 0;

	for (i = 0; i < d->nr; i++) {
		const struct wq_diff_row *r = &d->rows[i];

		if (!r->a || !r->b || r->a->executed < o->min_executed ||
		    r->b->executed < o->min_executed)
			continue;
		for (g = 0; g < o->nr_gates; g++) {
			size_t off = gate_cols[o->gates[g].col].off;
			uint64_t va = *(const uint64_t *)((const char *)r->a + off);
			uint64_t vb = *(const uint64_t *)((const char *)r->b + off);
			bool is_time = o->gates[g].col < 8;
			char ta[32], tb[32];

			/* no base to compare with, or not known */
			if (!va || va == WQ_UNKNOWN || vb == WQ_UNKNOWN)
				continue;
			if ((double)vb <= (double)va * o->gates[g].ratio)
				continue;
			bad++;
			if (is_time) {
				wq_fmt_time(va, ta, sizeof(ta));
				wq_fmt_time(vb, tb, sizeof(tb));
			} else {
				snprintf(ta, sizeof(ta), "%llu", (unsigned long long)va);
				snprintf(tb, sizeof(tb), "%llu", (unsigned long long)vb);
			}
			fprintf(stderr, "wqstat: diff: %s %s -> %s is x%.2f, above x%g: %s %s\n",
				gate_cols[o->gates[g].col].name, ta, tb, (double)vb / (double)va,
				o->gates[g].ratio, r->b->workqueue, r->b->function);
		}
	}
	return bad;
}

static int cmd_diff(int argc, char **argv)
{
	struct wq_table a, b;
	struct wq_diff d;
	struct opts o;
	char *buf = NULL;
	size_t len = 0, bad;
	FILE *mem;
	int i = parse_opts(argc, argv, "diff", "nswfjFM", false, &o);

	if (argc - i != 2)
		wq_die(WQ_EXIT_USAGE, "diff: needs two snapshot files, A and B (got %d)", argc - i);
	read_file(argv[i], &a);
	read_file(argv[i + 1], &b);
	filter(&a, &o);
	filter(&b, &o);
	if (wq_diff(&a, &b, &d))
		wq_die(WQ_EXIT_DATA, "out of memory");
	if (o.key_set && d.nr) {
		diff_key = o.key;
		qsort(d.rows, d.nr, sizeof(*d.rows), diff_key_cmp);
	}
	mem = open_memstream(&buf, &len);
	if (!mem)
		wq_die(WQ_EXIT_DATA, "out of memory");
	if (o.json)
		wq_print_diff_json(mem, &d, argv[i], argv[i + 1], o.top);
	else
		wq_print_diff_text(mem, &d, o.top);
	if (fclose(mem))
		wq_die(WQ_EXIT_DATA, "out of memory");
	emit(buf, len);
	bad = o.nr_gates ? judge(&d, &o) : 0;
	if (bad)
		fprintf(stderr, "wqstat: diff: %zu regression%s beyond --fail-above (rows with at least %llu executions in both)\n",
			bad, bad == 1 ? "" : "s", (unsigned long long)o.min_executed);
	wq_diff_free(&d);
	wq_table_free(&a);
	wq_table_free(&b);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "show";

	if (argc < 2 || argv[1][0] == '-')
		return cmd_show(argc, argv);
	if (!strcmp(cmd, "show"))
		return cmd_show(argc - 1, argv + 1);
	if (!strcmp(cmd, "enable"))
		return cmd_control(argc - 1, argv + 1, "workqueue_stat_enabled", "1");
	if (!strcmp(cmd, "disable"))
		return cmd_control(argc - 1, argv + 1, "workqueue_stat_enabled", "0");
	if (!strcmp(cmd, "reset"))
		return cmd_control(argc - 1, argv + 1, "workqueue_stat_reset", "1");
	if (!strcmp(cmd, "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(cmd, "snapshot"))
		return cmd_snapshot(argc - 1, argv + 1);
	if (!strcmp(cmd, "diff"))
		return cmd_diff(argc - 1, argv + 1);
	if (!strcmp(cmd, "top"))
		return wq_cmd_top(argc - 1, argv + 1);
	if (!strcmp(cmd, "help"))
		return printf(usage_text, wq_key_names(), gate_names()) < 0;
	wq_die(WQ_EXIT_USAGE, "unknown command '%s' (see wqstat --help)", cmd);
}
