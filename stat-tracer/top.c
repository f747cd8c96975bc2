// SPDX-License-Identifier: GPL-2.0
/*
 * wqstat top - a live view of the interval's busiest work functions.
 *
 * Two tables read an interval apart give, through wq_interval(), what
 * happened in between; top shows it as rates, worst first: full-screen like
 * top(1), or with -b as a plain table (or, with --json, a JSON line) per
 * interval.  The screen is drawn with plain VT100/ANSI escapes and termios,
 * and every way out (q, an error through wq_die() and exit(), a signal)
 * gives the terminal back as it was found.
 *
 * The signals top handles are blocked except while it waits in ppoll():
 * their handlers only set flags, so a signal never cuts a frame or a batch
 * line in two, and the wait cannot miss one that comes just before it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "wqstat.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char *usage_text =
"usage: wqstat top [-d SECONDS] [-n N] [-s KEY] [-w RE] [-f RE] [-c COUNT]\n"
"                  [-b] [-I MS] [--json]\n"
"\n"
"What the work functions did in each interval, as rates, worst first:\n"
"full-screen like top(1), or with -b one plain table per interval.  The first\n"
"figures come when the first interval has passed (the table's totals since\n"
"its reset are not an interval): until then the screen says collecting.\n"
"\n"
"Options:\n"
"  -d, --delay SECONDS    the interval, 0.1 to 3600, fractions allowed\n"
"                         (default 2)\n"
"  -n, --top N            at most N rows (default and 0: as many as fit the\n"
"                         terminal; with -b, all)\n"
"  -s, --sort KEY         sort by KEY (default total), worst first; s, < and >\n"
"                         cycle through total avg p99 lat p99lat maxlat executed\n"
"                         queued; -s takes any of:\n"
"                         %s\n"
"  -w, --workqueue RE     only rows whose workqueue matches the extended\n"
"                         regex RE\n"
"  -f, --function RE      only rows whose function matches RE\n"
"  -c, --count COUNT      stop after COUNT intervals (default: run until q or a\n"
"                         signal)\n"
"  -b, --batch            no screen control: one plain-text table per interval\n"
"                         on standard output, after a line with the time (ISO\n"
"                         8601, UTC) and the interval; needed when standard\n"
"                         output is not a terminal\n"
"  -I, --interval-ms MS   the interval in milliseconds, 100 to 3600000, as in\n"
"                         perf stat -I; implies -b\n"
"  -j, --json             with -b or -I: one JSON object per line per interval,\n"
"                         {\"time\", \"interval_s\", \"sort\", \"summary\", \"rows\"};\n"
"                         an unknown value is null\n"
"  -h, --help             this help\n"
"\n"
"Columns: EXEC/s executions per second; RUN%% the run time over the wall time\n"
"x100 (above 100 when several CPUs run the function at once); AVG_RUN and\n"
"P99_RUN the run time of the interval's executions; AVG_LAT and P99_LAT their\n"
"queueing latency; MAX_LAT its longest where the table tells (else -); P99s\n"
"need a kernel with trace_stat/workqueues_hist (else -); QUEUED/s queueings\n"
"per second; WORKQUEUE, as NAME@WQ_ID when two instances share a name and a\n"
"function; FUNCTION.  Rows with nothing in the interval are left out.\n"
"\n"
"Keys: q quit; s or > the next sort key, < the previous; space refresh now.\n"
"\n"
"Exit status: 0 at q or after COUNT intervals; %d usage error; %d data or\n"
"system error; 128+N after signal N (SIGINT, SIGTERM, SIGHUP, SIGQUIT).\n";

struct top_opts {
	double		interval;	/* seconds */
	size_t		limit;		/* rows; 0: as many as fit (all with -b) */
	enum wq_key	key;
	const char	*wq_re, *fn_re;
	uint64_t	count;		/* intervals; 0: no end */
	bool		batch, json;
};

static const struct option long_opts[] = {
	{ "delay", required_argument, NULL, 'd' },
	{ "top", required_argument, NULL, 'n' },
	{ "sort", required_argument, NULL, 's' },
	{ "workqueue", required_argument, NULL, 'w' },
	{ "function", required_argument, NULL, 'f' },
	{ "count", required_argument, NULL, 'c' },
	{ "batch", no_argument, NULL, 'b' },
	{ "interval-ms", required_argument, NULL, 'I' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The sort keys that s, < and > cycle through. */
static const enum wq_key cycle[] = {
	KEY_TOTAL, KEY_AVG, KEY_P99, KEY_LAT, KEY_P99LAT, KEY_MAXLAT,
	KEY_EXECUTED, KEY_QUEUED,
};
#define NR_CYCLE	ARRAY_SIZE(cycle)

/* The count @s given to option -@opt, from @min to @max; wq_die() if not. */
static uint64_t opt_count(int opt, const char *s, uint64_t min, uint64_t max, const char *what)
{
	uint64_t v;

	if (wq_parse_count(s, &v) || v < min || v > max)
		wq_die(WQ_EXIT_USAGE, "top: -%c takes %s, not '%s'", opt, what, s);
	return v;
}

/* The seconds @s given to -d, from 0.1 to 3600; wq_die() if not. */
static double opt_seconds(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < 0.1 || v > 3600)
		wq_die(WQ_EXIT_USAGE, "top: -d takes seconds from 0.1 to 3600, not '%s'", s);
	return v;
}

/* Parse top's options into @o; wq_die() on a usage error. */
static void parse_opts(int argc, char **argv, struct top_opts *o)
{
	bool delay_set = false, ms_set = false;
	int c;

	memset(o, 0, sizeof(*o));
	o->interval = 2.0;
	o->key = KEY_TOTAL;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:d:n:s:w:f:c:bI:jh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			printf(usage_text, wq_key_names(), WQ_EXIT_USAGE, WQ_EXIT_DATA);
			exit(fflush(stdout) ? WQ_EXIT_DATA : 0);
		case '?':
			wq_die(WQ_EXIT_USAGE, "top: unknown option '%s' (see wqstat top -h)",
			       argv[optind - 1]);
		case ':':
			wq_die(WQ_EXIT_USAGE, "top: option '%s' needs a value", argv[optind - 1]);
		case 'd':
			o->interval = opt_seconds(optarg);
			delay_set = true;
			break;
		case 'I':
			o->interval = opt_count(c, optarg, 100, 3600000,
						"milliseconds from 100 to 3600000") / 1000.0;
			o->batch = true;
			ms_set = true;
			break;
		case 'n':
			o->limit = opt_count(c, optarg, 0, WQSTAT_MAX_ROWS, "a count of rows");
			break;
		case 'c':
			o->count = opt_count(c, optarg, 1, UINT64_MAX,
					     "a count of intervals from 1");
			break;
		case 's':
			if (wq_key_parse(optarg, &o->key))
				wq_die(WQ_EXIT_USAGE, "top: unknown sort key '%s'; one of: %s",
				       optarg, wq_key_names());
			break;
		case 'w':
			o->wq_re = optarg;
			break;
		case 'f':
			o->fn_re = optarg;
			break;
		case 'b':
			o->batch = true;
			break;
		case 'j':
			o->json = true;
			break;
		}
	}
	if (optind < argc)
		wq_die(WQ_EXIT_USAGE, "top: unexpected argument '%s'", argv[optind]);
	if (delay_set && ms_set)
		wq_die(WQ_EXIT_USAGE, "top: -d and -I both set the interval; give one");
	if (o->json && !o->batch)
		wq_die(WQ_EXIT_USAGE, "top: --json is for batch output; add -b (or use -I MS)");
}

/* The name of @key, as -s takes it. */
static const char *key_name(enum wq_key key)
{
	static char word[32];
	const char *s = wq_key_names();
	enum wq_key k;

	while (*s) {
		size_t l = strcspn(s, " ");

		if (l < sizeof(word)) {
			memcpy(word, s, l);
			word[l] = '\0';
			if (!wq_key_parse(word, &k) && k == key)
				return word;
		}
		s += l;
		s += strspn(s, " ");
	}
	return "?";
}

/* The next (@dir 1) or previous (-1) key of the cycle after @key. */
static enum wq_key key_step(enum wq_key key, int dir)
{
	size_t i;

	for (i = 0; i < NR_CYCLE; i++)
		if (cycle[i] == key)
			return cycle[(i + NR_CYCLE + dir) % NR_CYCLE];
	return dir > 0 ? cycle[0] : cycle[NR_CYCLE - 1];
}

/* Signals: set by the handlers, read by the main loop. */
static volatile sig_atomic_t sig_quit, sig_stop, sig_cont, sig_winch;
/* The signal mask while waiting: the one top was started with. */
static sigset_t wait_mask;

/* Note a signal for the main loop, which alone acts on it. */
static void on_signal(int sig)
{
	switch (sig) {
	case SIGTSTP:
		sig_stop = 1;
		break;
	case SIGCONT:
		sig_cont = 1;
		break;
	case SIGWINCH:
		sig_winch = 1;
		break;
	default:
		if (!sig_quit)
			sig_quit = sig;
		break;
	}
}

/*
 * Catch the signals that end top (not one the caller had ignored, as a
 * shell does for SIGINT in a background job), and in full-screen mode
 * those of job control and resizing; block them all but in ppoll().
 */
static void signals_init(bool screen)
{
	static const int quit[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	static const int job[] = { SIGTSTP, SIGCONT, SIGWINCH };
	struct sigaction sa = { .sa_handler = on_signal }, old;
	sigset_t block;
	size_t i;

	sigemptyset(&sa.sa_mask);
	sigemptyset(&block);
	for (i = 0; i < ARRAY_SIZE(quit); i++) {
		if (!sigaction(quit[i], NULL, &old) && old.sa_handler == SIG_IGN)
			continue;
		sigaction(quit[i], &sa, NULL);
		sigaddset(&block, quit[i]);
	}
	for (i = 0; screen && i < ARRAY_SIZE(job); i++) {
		sigaction(job[i], &sa, NULL);
		sigaddset(&block, job[i]);
	}
	sigprocmask(SIG_BLOCK, &block, &wait_mask);
}

/* Write all of @buf to @fd; 0, or -1 with errno. */
static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= n;
	}
	return 0;
}

/* The terminal, while the screen is top's. */
static struct {
	bool		on;		/* alternate screen, hidden cursor, our termios */
	bool		keys;		/* stdin is a terminal to read keys from */
	bool		saved_ok;
	struct termios	saved;		/* the modes top found */
	int		err_fd;		/* the real stderr, while it is held */
	int		err_mem;	/* what was written to stderr meanwhile */
	int		rows, cols;
} scr = { .err_fd = -1, .err_mem = -1 };

/*
 * Hold what is written on stderr while the screen is top's: on the
 * alternate screen a message (wq_die()'s, just before exit() restores the
 * terminal) would vanish with it.  It is written out when the terminal is
 * given back.
 */
static void stderr_hold(void)
{
	int mem = memfd_create("wqstat-top-stderr", MFD_CLOEXEC);
	int fd;

	if (mem < 0)
		return;
	fd = mem > 2 ? fcntl(2, F_DUPFD_CLOEXEC, 3) : -1;
	if (fd < 0 || dup2(mem, 2) < 0) {
		if (fd >= 0)
			close(fd);
		close(mem);
		return;
	}
	scr.err_fd = fd;
	scr.err_mem = mem;
}

/* Put stderr back and write out what it got while held. */
static void stderr_release(void)
{
	char buf[4096];
	ssize_t n;

	if (scr.err_mem < 0)
		return;
	dup2(scr.err_fd, 2);
	close(scr.err_fd);
	if (lseek(scr.err_mem, 0, SEEK_SET) == 0)
		while ((n = read(scr.err_mem, buf, sizeof(buf))) > 0)
			if (write_all(2, buf, n))
				break;
	close(scr.err_mem);
	scr.err_fd = scr.err_mem = -1;
}

/* Read the terminal's size; 80x24 if it does not tell. */
static void screen_size(void)
{
	struct winsize ws;

	if (!ioctl(1, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		scr.rows = ws.ws_row;
		scr.cols = ws.ws_col;
	} else {
		scr.rows = 24;
		scr.cols = 80;
	}
}

/*
 * Take the terminal: keys unbuffered and unechoed (signals still from
 * Ctrl-C, Ctrl-Z, Ctrl-\), the alternate screen, no cursor.  Again after
 * SIGCONT, the shell may have changed the modes meanwhile.
 */
static void screen_enter(void)
{
	static const char hello[] = "\033[?1049h\033[?25l\033[H\033[2J";

	if (!scr.on)
		stderr_hold();
	scr.on = true;
	if (scr.keys) {
		struct termios raw;

		if (!scr.saved_ok) {
			if (tcgetattr(0, &scr.saved))
				wq_die(WQ_EXIT_DATA, "top: cannot read the terminal's modes: %s",
				       strerror(errno));
			scr.saved_ok = true;
		}
		raw = scr.saved;
		raw.c_lflag &= ~(ICANON | ECHO);
		raw.c_cc[VMIN] = 0;
		raw.c_cc[VTIME] = 0;
		if (tcsetattr(0, TCSADRAIN, &raw))
			wq_die(WQ_EXIT_DATA, "top: cannot set the terminal's modes: %s",
			       strerror(errno));
	}
	if (write_all(1, hello, sizeof(hello) - 1))
		wq_die(WQ_EXIT_DATA, "top: writing to the terminal failed: %s", strerror(errno));
	screen_size();
}

/* Give the terminal back as it was found; at any time, more than once. */
static void screen_leave(void)
{
	static const char bye[] = "\033[m\033[?25h\033[?1049l";

	if (!scr.on)
		return;
	scr.on = false;
	write_all(1, bye, sizeof(bye) - 1);
	if (scr.saved_ok)
		tcsetattr(0, TCSADRAIN, &scr.saved);
	stderr_release();
}

/* Ctrl-Z: give the terminal back, stop, take it again once continued. */
static void suspend(void)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL }, old;
	sigset_t tstp;

	screen_leave();
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGTSTP, &dfl, &old);
	sigemptyset(&tstp);
	sigaddset(&tstp, SIGTSTP);
	raise(SIGTSTP);
	/* pending until unblocked: top stops here, and goes on at SIGCONT */
	sigprocmask(SIG_UNBLOCK, &tstp, NULL);
	sigprocmask(SIG_BLOCK, &tstp, NULL);
	sigaction(SIGTSTP, &old, NULL);
	screen_enter();
}

/* One reading of the table, with when it was taken. */
struct sample {
	struct wq_table	t;
	struct timespec	mono, real;
};

/* Read the live table into @s. */
static void sample_take(struct sample *s)
{
	size_t len;

	clock_gettime(CLOCK_MONOTONIC, &s->mono);
	clock_gettime(CLOCK_REALTIME, &s->real);
	free(wq_read_live(&s->t, &len));
}

/* Seconds from @a to @b. */
static double ts_diff(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

/* @t plus @secs seconds. */
static struct timespec ts_add(struct timespec t, double secs)
{
	double whole = floor(secs);

	t.tv_sec += (time_t)whole;
	t.tv_nsec += (long)((secs - whole) * 1e9);
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}

/*
 * How long the interval from @a to @b was, and whether the table was reset
 * in it.  The kernel stamps each table with its age since the last reset,
 * taken with the rows: the difference of the two stamps is the time the
 * differences of the counts cover, free of the delays of reading a large
 * table, and it is used when both tables have it and it agrees with top's
 * own clock within a factor of two (a stale stamp does not).  After a
 * reset, the interval is B's counts whole, over B's age.  Else it is the
 * monotonic clock's time between the two reads.
 */
static double interval_secs(const struct sample *a, const struct sample *b, bool *reset)
{
	double wall = ts_diff(&a->mono, &b->mono), sa = a->t.since_reset;
	double sb = b->t.since_reset;

	*reset = (a->t.resets >= 0 && b->t.resets >= 0 && a->t.resets != b->t.resets) ||
		 (sa >= 0 && sb >= 0 && sb < sa);
	if (wall < 1e-6)
		wall = 1e-6;
	if (*reset)
		return sb > 0 && sb < wall * 2 ? sb : wall;
	if (sa > 0 && sb > sa && sb - sa >= wall / 2 && sb - sa <= wall * 2)
		return sb - sa;
	return wall;
}

/* What is shown: the last interval, or the first reading before one ended. */
struct view {
	struct wq_table	iv;		/* the interval's rows, filtered, sorted */
	struct wq_table	sum;		/* the later table's summary (no rows) */
	bool		have;		/* an interval has ended */
	bool		reset;		/* the table was reset in it */
	double		secs;		/* its length */
	long long	d_dropped;	/* events dropped in it; -1: unknown */
	struct timespec	real;		/* when it ended */
	double		exec_s, queued_s, run_pct;
};

/* The rows of the later table whose workqueue name and function another row has. */
static const struct wq_row **twin;
static size_t twin_nr;

/* qsort/bsearch: row pointers by workqueue name, then function. */
static int cmp_names(const void *x, const void *y)
{
	const struct wq_row *a = *(const struct wq_row *const *)x;
	const struct wq_row *b = *(const struct wq_row *const *)y;
	int c = strcmp(a->workqueue, b->workqueue);

	return c ? c : strcmp(a->function, b->function);
}

/*
 * Find the rows of @t (the later table, whole) that share their name and
 * function with another: two instances of a workqueue, shown as NAME@WQ_ID.
 * Taken from the whole table, not the interval's rows, so that a row keeps
 * its label from one interval to the next.
 */
static void twins_find(const struct wq_table *t)
{
	bool prev = false;
	size_t i;

	free(twin);
	twin_nr = 0;
	twin = malloc((t->nr + 1) * sizeof(*twin));
	if (!twin)
		wq_die(WQ_EXIT_DATA, "out of memory");
	for (i = 0; i < t->nr; i++)
		twin[i] = &t->rows[i];
	qsort(twin, t->nr, sizeof(*twin), cmp_names);
	for (i = 0; i < t->nr; i++) {
		bool next = i + 1 < t->nr && !cmp_names(&twin[i], &twin[i + 1]);

		if (prev || next)
			twin[twin_nr++] = twin[i];
		prev = next;
	}
}

/* Whether @r is to be shown with its WQ_ID. */
static bool show_id(const struct wq_row *r)
{
	return r->wq_id[0] && strcmp(r->wq_id, "-") && twin_nr &&
	       bsearch(&r, twin, twin_nr, sizeof(*twin), cmp_names);
}

/* The interval from sample @a to @b, filtered by @f, into @v. */
static void view_update(struct view *v, const struct sample *a, const struct sample *b,
			const struct wq_filter *f)
{
	double run = 0, exec = 0, queued = 0;
	size_t i;

	wq_table_free(&v->iv);
	if (wq_interval(&a->t, &b->t, &v->iv))
		wq_die(WQ_EXIT_DATA, "out of memory");
	wq_filter_apply(f, &v->iv);
	v->sum = b->t;
	v->sum.rows = NULL;
	v->sum.nr = v->sum.alloc = 0;
	v->secs = interval_secs(a, b, &v->reset);
	v->d_dropped = !v->reset && a->t.dropped >= 0 && b->t.dropped >= a->t.dropped ?
		       b->t.dropped - a->t.dropped : -1;
	v->real = b->real;
	v->have = true;
	for (i = 0; i < v->iv.nr; i++) {
		exec += v->iv.rows[i].executed;
		queued += v->iv.rows[i].queued;
		run += v->iv.rows[i].run_total;
	}
	v->exec_s = exec / v->secs;
	v->queued_s = queued / v->secs;
	v->run_pct = run / 1e9 / v->secs * 100;
	twins_find(&b->t);
}

/* Write a name, padded to @w columns: controls, C1 and bytes that are not UTF-8 as '?'. */
static void put_name(FILE *o, const char *s, int w)
{
	const unsigned char *p = (const unsigned char *)s;
	int cols = 0;

	while (*p) {
		size_t l = wq_utf8_len(p);

		if (*p == '\t')
			fputc(' ', o);
		else if (!l || *p < 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] < 0xa0))
			fputc('?', o);
		else
			fwrite(p, 1, l, o);
		p += l ? l : 1;
		cols++;
	}
	for (; cols < w; cols++)
		fputc(' ', o);
}

/* A time column: " %10s" of the time, or "-" when it is unknown. */
static void put_time(FILE *o, uint64_t ns)
{
	char b[32] = "-";

	if (ns != WQ_UNKNOWN)
		wq_fmt_time(ns, b, sizeof(b));
	fprintf(o, " %10s", b);
}

/* The column names, as put_row() fills them. */
static void put_head(FILE *o)
{
	fprintf(o, "%9s %6s %10s %10s %10s %10s %10s %9s  %-20s %s", "EXEC/s", "RUN%",
		"AVG_RUN", "P99_RUN", "AVG_LAT", "P99_LAT", "MAX_LAT", "QUEUED/s",
		"WORKQUEUE", "FUNCTION");
}

/* One row of the interval @v, without the newline. */
static void put_row(FILE *o, const struct view *v, const struct wq_row *r)
{
	fprintf(o, "%9.1f %6.1f", r->executed / v->secs, r->run_total / 1e9 / v->secs * 100);
	put_time(o, r->run_avg);
	put_time(o, r->run_p99);
	put_time(o, r->lat_avg);
	put_time(o, r->lat_p99);
	put_time(o, r->lat_max);
	fprintf(o, " %9.1f  ", r->queued / v->secs);
	if (show_id(r)) {
		char *l;

		if (asprintf(&l, "%s@%s", r->workqueue, r->wq_id) < 0)
			wq_die(WQ_EXIT_DATA, "out of memory");
		put_name(o, l, 20);
		free(l);
	} else {
		put_name(o, r->workqueue, 20);
	}
	fputc(' ', o);
	put_name(o, r->function, 0);
}

/* The summary after the time: interval, sort key, totals, the tracer's state. */
static void put_summary(FILE *o, const struct view *v, double interval, enum wq_key key,
			size_t shown)
{
	if (v->have)
		fprintf(o, "interval %.3f s  sort %s  %.1f exec/s  rows %zu of %zu", v->secs,
			key_name(key), v->exec_s, shown, v->iv.nr);
	else
		fprintf(o, "interval %.3f s  sort %s", interval, key_name(key));
	if (v->sum.enabled >= 0)
		fprintf(o, "  tracer %s", v->sum.enabled ? "on" : "OFF");
	if (v->sum.dropped >= 0)
		fprintf(o, "  dropped %lld", v->sum.dropped);
	if (v->d_dropped > 0)
		fprintf(o, " (+%lld)", v->d_dropped);
	if (v->reset)
		fputs("  table reset", o);
}

/* @t as ISO 8601 in UTC, with milliseconds. */
static void iso_time(const struct timespec *t, char *buf, size_t len)
{
	struct tm tm;
	char s[32];

	gmtime_r(&t->tv_sec, &tm);
	strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%03uZ", s, (unsigned int)(t->tv_nsec / 1000000) % 1000u);
}

/* Write @s (text, no newline) clipped to @cols columns; return the columns written. */
static int put_clipped(FILE *o, const char *s, size_t len, int cols)
{
	size_t i = 0;
	int n = 0;

	while (i < len) {
		size_t j = i + 1;

		/* put_name() wrote whole UTF-8 sequences: one column each */
		while (j < len && ((unsigned char)s[j] & 0xc0) == 0x80)
			j++;
		if (n == cols)
			break;
		fwrite(s + i, 1, j - i, o);
		n++;
		i = j;
	}
	return n;
}

/*
 * Draw the screen: a title line (time and summary), a status line, the
 * column names in reverse video, then as many rows as fit (at most -n).
 * Each line is clipped to the width, never wrapped; the frame goes out in
 * one write.
 */
static void draw(const struct view *v, const struct top_opts *o, enum wq_key key,
		 const struct timespec *deadline)
{
	char *text = NULL, *frame = NULL, when[16];
	size_t tlen = 0, flen = 0, shown = 0, i;
	int avail = scr.rows - 3, line;
	struct timespec now;
	const char *p, *end;
	struct tm tm;
	FILE *m = open_memstream(&text, &tlen), *f;

	if (!m)
		wq_die(WQ_EXIT_DATA, "out of memory");
	if (v->have) {
		shown = v->iv.nr;
		if (avail < 0)
			avail = 0;
		if ((size_t)avail < shown)
			shown = avail;
		if (o->limit && o->limit < shown)
			shown = o->limit;
	}
	localtime_r(&v->real.tv_sec, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	fprintf(m, "wqstat top - %s  ", when);
	put_summary(m, v, o->interval, key, shown);
	fputc('\n', m);
	if (!v->have) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		fprintf(m, "collecting... the first interval ends in %.1f s  |  ",
			fmax(ts_diff(&now, deadline), 0));
	} else if (v->sum.enabled == 0) {
		fputs("the tracer is off: nothing is counted ('wqstat enable' starts it)  |  ", m);
	} else if (v->reset) {
		fputs("the table was reset in this interval: rates over the time since  |  ", m);
	} else if (!v->iv.nr) {
		fputs("no work in this interval  |  ", m);
	}
	fprintf(m, "q quit  s/> next sort  < previous  space refresh%s\n",
		scr.keys ? "" : "  (no keys: stdin is not a terminal)");
	put_head(m);
	fputc('\n', m);
	for (i = 0; i < shown; i++) {
		put_row(m, v, &v->iv.rows[i]);
		fputc('\n', m);
	}
	if (fclose(m))
		wq_die(WQ_EXIT_DATA, "out of memory");

	f = open_memstream(&frame, &flen);
	if (!f)
		wq_die(WQ_EXIT_DATA, "out of memory");
	fputs("\033[H", f);
	for (p = text, line = 0; p < text + tlen && line < scr.rows; p = end + 1, line++) {
		int n;

		end = memchr(p, '\n', text + tlen - p);
		if (!end)
			end = text + tlen;
		if (line)
			fputs("\r\n", f);
		if (line == 2)
			fputs("\033[7m", f);
		n = put_clipped(f, p, end - p, scr.cols);
		if (line == 2)
			for (; n < scr.cols; n++)
				fputc(' ', f);
		if (line == 2)
			fputs("\033[m", f);
		/* at the last column, EL would erase the character there */
		if (n < scr.cols)
			fputs("\033[K", f);
	}
	if (line < scr.rows)
		fputs("\r\n\033[J", f);
	if (fclose(f))
		wq_die(WQ_EXIT_DATA, "out of memory");
	if (write_all(1, frame, flen))
		wq_die(WQ_EXIT_DATA, "top: writing to the terminal failed: %s", strerror(errno));
	free(text);
	free(frame);
}

/* A time in microseconds as a JSON number, null when unknown. */
static void json_us(FILE *o, const char *key, uint64_t ns)
{
	fputs(", ", o);
	wq_json_us(o, key, ns, false);
}

/* A rate as a JSON number: null were it not finite. */
static void json_num(FILE *o, const char *key, double v)
{
	if (isfinite(v))
		fprintf(o, ", \"%s\": %.3f", key, v);
	else
		fprintf(o, ", \"%s\": null", key);
}

/* A summary count, null where the table had none. */
static void json_ll(FILE *o, const char *key, long long v)
{
	if (v < 0)
		fprintf(o, ", \"%s\": null", key);
	else
		fprintf(o, ", \"%s\": %lld", key, v);
}

/* The interval @v as one JSON object on one line. */
static void print_json(FILE *o, const struct view *v, enum wq_key key, size_t n)
{
	char when[40];
	size_t i;

	iso_time(&v->real, when, sizeof(when));
	fprintf(o, "{\"time\": \"%s\"", when);
	json_num(o, "interval_s", v->secs);
	fprintf(o, ", \"sort\": \"%s\", \"summary\": {\"enabled\": %s", key_name(key),
		v->sum.enabled < 0 ? "null" : v->sum.enabled ? "true" : "false");
	fprintf(o, ", \"reset\": %s", v->reset ? "true" : "false");
	json_ll(o, "dropped", v->sum.dropped);
	json_ll(o, "dropped_in_interval", v->d_dropped);
	json_ll(o, "rows_used", v->sum.rows_used);
	json_ll(o, "capacity", v->sum.capacity);
	json_ll(o, "lost_pairs", v->sum.lost_pairs);
	json_ll(o, "unmatched", v->sum.unmatched);
	if (v->sum.since_reset >= 0 && isfinite(v->sum.since_reset))
		json_num(o, "since_reset_s", v->sum.since_reset);
	else
		fputs(", \"since_reset_s\": null", o);
	fprintf(o, ", \"rows\": %zu", v->iv.nr);
	json_num(o, "exec_per_s", v->exec_s);
	json_num(o, "queued_per_s", v->queued_s);
	json_num(o, "run_pct", v->run_pct);
	fputs("}, \"rows\": [", o);
	for (i = 0; i < n; i++) {
		const struct wq_row *r = &v->iv.rows[i];

		fputs(i ? ", {" : "{", o);
		wq_json_ident(o, r);
		fprintf(o, ", \"executed\": %llu, \"queued\": %llu",
			(unsigned long long)r->executed, (unsigned long long)r->queued);
		fprintf(o, ", \"cancelled\": %llu", (unsigned long long)r->cancelled);
		json_num(o, "exec_per_s", r->executed / v->secs);
		json_num(o, "queued_per_s", r->queued / v->secs);
		json_num(o, "run_pct", r->run_total / 1e9 / v->secs * 100);
		json_us(o, "total_run_us", r->run_total);
		json_us(o, "avg_run_us", r->run_avg);
		json_us(o, "p99_run_us", r->run_p99);
		json_us(o, "min_run_us", r->run_min);
		json_us(o, "max_run_us", r->run_max);
		json_us(o, "avg_lat_us", r->lat_avg);
		json_us(o, "p99_lat_us", r->lat_p99);
		json_us(o, "max_lat_us", r->lat_max);
		fputc('}', o);
	}
	fputs("]}\n", o);
}

/* The interval @v on stdout, whole and flushed: a table, or a JSON line. */
static void print_batch(const struct view *v, const struct top_opts *o, enum wq_key key)
{
	size_t n = o->limit && o->limit < v->iv.nr ? o->limit : v->iv.nr, len = 0, i;
	char *buf = NULL, when[40];
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		wq_die(WQ_EXIT_DATA, "out of memory");
	if (o->json) {
		print_json(m, v, key, n);
	} else {
		iso_time(&v->real, when, sizeof(when));
		fprintf(m, "%s  ", when);
		put_summary(m, v, o->interval, key, n);
		fputc('\n', m);
		put_head(m);
		fputc('\n', m);
		for (i = 0; i < n; i++) {
			put_row(m, v, &v->iv.rows[i]);
			fputc('\n', m);
		}
		fputc('\n', m);
	}
	if (fclose(m))
		wq_die(WQ_EXIT_DATA, "out of memory");
	if ((len && fwrite(buf, 1, len, stdout) != len) || fflush(stdout))
		wq_die(WQ_EXIT_DATA, "writing the output failed: %s", strerror(errno));
	free(buf);
}

/*
 * Wait until @deadline, a signal or a key; the keys read go to @keys
 * (at most @size), their count is returned.
 */
static size_t wait_for(const struct timespec *deadline, char *keys, size_t size)
{
	struct pollfd pfd = { .fd = 0, .events = POLLIN };
	struct timespec now, left;
	double secs;
	ssize_t n;

	clock_gettime(CLOCK_MONOTONIC, &now);
	secs = fmax(ts_diff(&now, deadline), 0);
	left.tv_sec = (time_t)secs;
	left.tv_nsec = (long)((secs - floor(secs)) * 1e9);
	if (ppoll(&pfd, scr.keys && scr.on ? 1 : 0, &left, &wait_mask) <= 0 ||
	    !(pfd.revents & (POLLIN | POLLHUP | POLLERR)))
		return 0;
	n = read(0, keys, size);
	if (n > 0)
		return n;
	if (n == 0 || (errno != EINTR && errno != EAGAIN))
		scr.keys = false;	/* hung up: stop watching it */
	return 0;
}

/*
 * The first screen.  top(1) users expect the screen at once and figures
 * that are rates over a real interval.  The table's totals since its reset
 * are neither (hours of history under the headings of the last seconds),
 * so top reads the table at once, shows the header (the tracer's state,
 * the sort key) with "collecting..." and the time left while the first
 * interval runs, keys live, and the first figures when it ends.  Batch
 * output, as perf stat -I, starts with the first interval.
 */
static int run(const struct top_opts *o, const struct wq_filter *flt)
{
	struct sample s[2];
	struct timespec deadline, now;
	enum wq_key key = o->key;
	struct view v = { .d_dropped = -1 };
	uint64_t done = 0;
	int cur = 0, ret = 0;
	bool quit = false;

	wq_table_init(&v.iv);
	wq_table_init(&s[1].t);
	sample_take(&s[0]);
	v.sum = s[0].t;
	v.sum.rows = NULL;
	v.sum.nr = v.sum.alloc = 0;
	v.real = s[0].real;
	deadline = ts_add(s[0].mono, o->interval);
	if (!o->batch) {
		screen_enter();
		draw(&v, o, key, &deadline);
	}
	for (;;) {
		char keys[64];
		size_t nk = wait_for(&deadline, keys, sizeof(keys)), i;
		bool redraw = false, refresh = false;

		if (sig_quit) {
			ret = 128 + sig_quit;
			break;
		}
		if (sig_stop) {
			sig_stop = 0;
			suspend();
			redraw = true;
		}
		if (sig_cont) {
			sig_cont = 0;
			screen_enter();
			redraw = true;
		}
		if (sig_winch) {
			sig_winch = 0;
			screen_size();
			redraw = true;
		}
		for (i = 0; i < nk; i++) {
			enum wq_key k = key;

			switch (keys[i]) {
			case 'q':
			case 'Q':
				quit = true;
				break;
			case 's':
			case '>':
				k = key_step(key, 1);
				break;
			case '<':
				k = key_step(key, -1);
				break;
			case ' ':
				refresh = true;
				break;
			case '\f':
				redraw = true;
				break;
			}
			if (quit)
				break;
			if (k != key) {
				key = k;
				wq_sort(&v.iv, key);
				redraw = true;
			}
		}
		if (quit)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (refresh || ts_diff(&deadline, &now) >= 0) {
			struct sample *a = &s[cur], *b = &s[!cur];

			sample_take(b);
			view_update(&v, a, b, flt);
			wq_table_free(&a->t);
			cur = !cur;
			wq_sort(&v.iv, key);
			done++;
			/* on a schedule, like perf stat -I, unless behind it or refreshed */
			deadline = ts_add(deadline, o->interval);
			if (refresh || ts_diff(&b->mono, &deadline) <= 0)
				deadline = ts_add(b->mono, o->interval);
			if (o->batch)
				print_batch(&v, o, key);
			else
				redraw = true;
		}
		if (redraw && !o->batch)
			draw(&v, o, key, &deadline);
		if (o->count && done >= o->count)
			break;
	}
	screen_leave();
	wq_table_free(&v.iv);
	wq_table_free(&s[cur].t);
	free(twin);
	twin = NULL;
	twin_nr = 0;
	return ret;
}

/* wqstat top: check the options and the terminal, then run. */
int wq_cmd_top(int argc, char **argv)
{
	struct wq_filter flt;
	struct top_opts o;
	int ret;

	parse_opts(argc, argv, &o);
	if (!o.batch && !isatty(1))
		wq_die(WQ_EXIT_USAGE,
		       "top: standard output is not a terminal; use -b (or -I MS) for plain text, one table per interval");
	wq_filter_init(&flt, o.wq_re, o.fn_re);
	wq_tracefs();
	if (!o.batch) {
		scr.keys = isatty(0);
		atexit(screen_leave);
	}
	signals_init(!o.batch);
	ret = run(&o, &flt);
	wq_filter_free(&flt);
	return ret;
}
