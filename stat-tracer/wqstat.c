// SPDX-License-Identifier: GPL-2.0
/*
 * wqstat - run, snapshot and compare workloads with the workqueue stat
 * tracer (trace_stat/workqueues of CONFIG_WORKQUEUE_TRACER).
 *
 * Every error goes through die(): one line on stderr naming what is wrong,
 * exit 1 for a usage error, 2 for anything else (bad data, no tracer, no
 * permission).  Output is built in memory and written only when complete,
 * so a failure never leaves half a table on stdout.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
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

#define EXIT_USAGE	1
#define EXIT_DATA	2

static const char *usage_text =
"usage: wqstat [COMMAND] [OPTIONS]\n"
"\n"
"Commands:\n"
"  show [-n N] [-s KEY] [-w REGEX] [-f REGEX] [-i FILE] [--json|--prometheus]\n"
"        print the table (the default command)\n"
"  enable | disable | reset\n"
"        turn the tracer on or off, or clear its table\n"
"  run [-o FILE] [-n N] [-s KEY] [-w REGEX] [-f REGEX] [--json] -- CMD [ARGS...]\n"
"        reset, enable, run CMD, disable, and print the table; exits with\n"
"        CMD's status; -o also writes a snapshot to FILE\n"
"  snapshot -o FILE\n"
"        write the table, the kernel release and the time to FILE\n"
"  diff [-n N] [--json] A B\n"
"        compare snapshot B against snapshot A; rows sorted by the time\n"
"        lost in B (executions x growth of average run + latency), worst first\n"
"\n"
"Options:\n"
"  -n, --top N          show the first N rows only (0: all; show defaults to all)\n"
"  -s, --sort KEY       sort by KEY, one of: %s\n"
"                       (numbers largest first; default total)\n"
"  -w, --workqueue RE   only rows whose workqueue matches the extended regex RE\n"
"  -f, --function RE    only rows whose function matches RE\n"
"  -i, --input FILE     show a snapshot file instead of the live table\n"
"  -o, --output FILE    the snapshot file to write\n"
"  -j, --json           JSON instead of text\n"
"  -p, --prometheus     node_exporter textfile format (show only)\n"
"  -h, --help           this help\n"
"\n"
"Environment: WQSTAT_TRACEFS names the tracefs directory (default: found in\n"
"/proc/mounts, mounted at /sys/kernel/tracing if needed and permitted).\n"
"Exit status: 0 ok, 1 usage error, 2 data or system error; run: CMD's status.\n";

/* The one error printer: a line on stderr, then exit. */
static void __attribute__((noreturn, format(printf, 2, 3)))
die(int code, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("wqstat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

struct opts {
	size_t top;
	bool top_set;
	enum wq_key key;
	const char *wq_re, *fn_re, *input, *output;
	bool json, prometheus;
};

static const struct option long_opts[] = {
	{ "top", required_argument, NULL, 'n' },
	{ "sort", required_argument, NULL, 's' },
	{ "workqueue", required_argument, NULL, 'w' },
	{ "function", required_argument, NULL, 'f' },
	{ "input", required_argument, NULL, 'i' },
	{ "output", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, 'j' },
	{ "prometheus", no_argument, NULL, 'p' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Parse the options of @cmd; @allowed lists the short options it takes. */
static int parse_opts(int argc, char **argv, const char *cmd,
		      const char *allowed, struct opts *o)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->key = KEY_TOTAL;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:n:s:w:f:i:o:jph", long_opts, NULL)) != -1) {
		if (c == 'h') {
			printf(usage_text, wq_key_names());
			exit(0);
		}
		if (c == '?')
			die(EXIT_USAGE, "%s: unknown option '%s' (see wqstat --help)", cmd,
			    argv[optind - 1]);
		if (c == ':')
			die(EXIT_USAGE, "%s: option '%s' needs a value", cmd, argv[optind - 1]);
		if (!strchr(allowed, c))
			die(EXIT_USAGE, "%s: option -%c does not apply (see wqstat --help)",
			    cmd, c);
		switch (c) {
		case 'n': {
			char *end;
			unsigned long long v;

			errno = 0;
			v = strtoull(optarg, &end, 10);
			if (errno || *end || !*optarg || optarg[0] == '-')
				die(EXIT_USAGE, "%s: -n takes a count, not '%s'", cmd, optarg);
			o->top = v;
			o->top_set = true;
			break;
		}
		case 's':
			if (wq_key_parse(optarg, &o->key))
				die(EXIT_USAGE, "%s: unknown sort key '%s'; one of: %s", cmd,
				    optarg, wq_key_names());
			break;
		case 'w': o->wq_re = optarg; break;
		case 'f': o->fn_re = optarg; break;
		case 'i': o->input = optarg; break;
		case 'o': o->output = optarg; break;
		case 'j': o->json = true; break;
		case 'p': o->prometheus = true; break;
		}
	}
	if (o->json && o->prometheus)
		die(EXIT_USAGE, "%s: --json and --prometheus exclude each other", cmd);
	return optind;
}

static char tracefs[4096];

/* Find tracefs through /proc/mounts; mount it if needed and permitted. */
static const char *find_tracefs(void)
{
	const char *env = getenv("WQSTAT_TRACEFS");
	char dev[256], dir[4096], type[64], rest[512];
	char debugfs[4200] = "";
	FILE *m;

	if (tracefs[0])
		return tracefs;
	if (env && *env) {
		snprintf(tracefs, sizeof(tracefs), "%s", env);
		return tracefs;
	}
	m = fopen("/proc/mounts", "r");
	if (m) {
		char line[8192];

		while (fgets(line, sizeof(line), m)) {
			if (sscanf(line, "%255s %4095s %63s %511s", dev, dir, type, rest) != 4)
				continue;
			if (!strcmp(type, "tracefs")) {
				snprintf(tracefs, sizeof(tracefs), "%s", dir);
				break;
			}
			if (!strcmp(type, "debugfs") && !debugfs[0])
				snprintf(debugfs, sizeof(debugfs), "%s/tracing", dir);
		}
		fclose(m);
	}
	if (tracefs[0])
		return tracefs;
	if (debugfs[0] && strlen(debugfs) < sizeof(tracefs) && !access(debugfs, F_OK)) {
		memcpy(tracefs, debugfs, strlen(debugfs) + 1);
		return tracefs;
	}
	if (geteuid() != 0)
		die(EXIT_DATA, "tracefs is not mounted, and only root may mount it "
		    "(mount -t tracefs nodev /sys/kernel/tracing)");
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL))
		die(EXIT_DATA, "tracefs is not mounted and mounting it on /sys/kernel/tracing failed: %s",
		    strerror(errno));
	snprintf(tracefs, sizeof(tracefs), "/sys/kernel/tracing");
	return tracefs;
}

/* Explain why a tracefs file could not be used. */
static void __attribute__((noreturn)) die_file(const char *path, const char *what, int err)
{
	if (err == ENOENT)
		die(EXIT_DATA, "%s: no such file: this kernel has no workqueue stat tracer "
		    "(CONFIG_WORKQUEUE_TRACER=y) or tracefs is elsewhere", path);
	if (err == EACCES || err == EPERM)
		die(EXIT_DATA, "%s: permission denied (the tracer needs root)", path);
	die(EXIT_DATA, "%s: cannot %s: %s", path, what, strerror(err));
}

/* Write @val to the tracefs control file @name. */
static void control(const char *name, const char *val)
{
	char path[4200];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", find_tracefs(), name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		die_file(path, "open it", errno);
	n = write(fd, val, strlen(val));
	if (n != (ssize_t)strlen(val)) {
		int e = n < 0 ? errno : EIO;

		close(fd);
		die_file(path, "write it", e);
	}
	if (close(fd))
		die_file(path, "close it", errno);
}

/* Read the whole live table into memory (text), parse it into @t. */
static char *read_live(struct wq_table *t, size_t *len)
{
	char path[4200], *buf = NULL;
	struct wq_error err;
	size_t cap = 0;
	FILE *f, *mem;
	char chunk[65536];
	size_t n;

	snprintf(path, sizeof(path), "%s/trace_stat/workqueues", find_tracefs());
	f = fopen(path, "r");
	if (!f)
		die_file(path, "open it", errno);
	mem = open_memstream(&buf, &cap);
	if (!mem)
		die(EXIT_DATA, "out of memory");
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, mem);
	if (ferror(f))
		die_file(path, "read it", errno);
	fclose(f);
	if (fclose(mem))
		die(EXIT_DATA, "out of memory");
	*len = cap;
	if (!cap)
		die(EXIT_DATA, "%s: empty: is this the workqueue stat tracer?", path);
	f = fmemopen(buf, cap, "r");
	if (!f)
		die(EXIT_DATA, "out of memory");
	if (wq_parse(f, path, t, &err))
		die(EXIT_DATA, "%s", err.msg);
	fclose(f);
	return buf;
}

/* Load a snapshot file. */
static void read_file(const char *path, struct wq_table *t)
{
	struct wq_error err;
	FILE *f = fopen(path, "r");

	if (!f)
		die(EXIT_DATA, "%s: cannot open: %s", path, strerror(errno));
	if (wq_parse(f, path, t, &err))
		die(EXIT_DATA, "%s", err.msg);
	fclose(f);
}

/* Keep the rows whose names match the filters. */
static void filter(struct wq_table *t, const struct opts *o)
{
	regex_t wre, fre;
	size_t i, k = 0;
	char msg[256];
	int rc;

	if (o->wq_re && (rc = regcomp(&wre, o->wq_re, REG_EXTENDED | REG_NOSUB))) {
		regerror(rc, &wre, msg, sizeof(msg));
		die(EXIT_USAGE, "-w '%s': %s", o->wq_re, msg);
	}
	if (o->fn_re && (rc = regcomp(&fre, o->fn_re, REG_EXTENDED | REG_NOSUB))) {
		regerror(rc, &fre, msg, sizeof(msg));
		die(EXIT_USAGE, "-f '%s': %s", o->fn_re, msg);
	}
	for (i = 0; i < t->nr; i++) {
		struct wq_row *r = &t->rows[i];

		if ((o->wq_re && regexec(&wre, r->workqueue, 0, NULL, 0)) ||
		    (o->fn_re && regexec(&fre, r->function, 0, NULL, 0))) {
			free(r->workqueue);
			free(r->function);
			continue;
		}
		t->rows[k++] = *r;
	}
	t->nr = k;
	if (o->wq_re)
		regfree(&wre);
	if (o->fn_re)
		regfree(&fre);
}

/* Write @buf to stdout in full, or fail. */
static void emit(char *buf, size_t len)
{
	if (len && fwrite(buf, 1, len, stdout) != len)
		die(EXIT_DATA, "writing the output failed: %s", strerror(errno));
	if (fflush(stdout))
		die(EXIT_DATA, "writing the output failed: %s", strerror(errno));
	free(buf);
}

/* Print @t per the options, all at once. */
static void print_table(struct wq_table *t, const struct opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	if (!mem)
		die(EXIT_DATA, "out of memory");
	filter(t, o);
	wq_sort(t, o->key);
	if (o->json)
		wq_print_json(mem, t, o->top);
	else if (o->prometheus)
		wq_print_prometheus(mem, t);
	else
		wq_print_text(mem, t, o->top);
	if (fclose(mem))
		die(EXIT_DATA, "out of memory");
	emit(buf, len);
}

/* Write a snapshot: magic, kernel, time, then the raw table. */
static void write_snapshot(const char *path, const char *raw, size_t len)
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
		die(EXIT_DATA, "%s: cannot create: %s", path, strerror(errno));
	fprintf(f, "%s\n# kernel: %s\n# time: %s\n", WQSTAT_SNAPSHOT_MAGIC, u.release, when);
	fwrite(raw, 1, len, f);
	if (ferror(f) | fclose(f)) {
		unlink(tmp);
		die(EXIT_DATA, "%s: write failed: %s", path, strerror(errno));
	}
	if (rename(tmp, path)) {
		unlink(tmp);
		die(EXIT_DATA, "%s: cannot rename into place: %s", path, strerror(errno));
	}
}

static int cmd_show(int argc, char **argv)
{
	struct wq_table t;
	struct opts o;
	int i = parse_opts(argc, argv, "show", "nswfijp", &o);

	if (i < argc)
		die(EXIT_USAGE, "show: unexpected argument '%s'", argv[i]);
	if (o.input)
		read_file(o.input, &t);
	else
		free(read_live(&t, &(size_t){ 0 }));
	print_table(&t, &o);
	wq_table_free(&t);
	return 0;
}

static int cmd_control(int argc, char **argv, const char *name, const char *val)
{
	struct opts o;
	int i = parse_opts(argc, argv, argv[0], "", &o);

	if (i < argc)
		die(EXIT_USAGE, "%s: unexpected argument '%s'", argv[0], argv[i]);
	control(name, val);
	return 0;
}

static int cmd_snapshot(int argc, char **argv)
{
	struct wq_table t;
	struct opts o;
	char *raw;
	size_t len;
	int i = parse_opts(argc, argv, "snapshot", "o", &o);

	if (i < argc)
		die(EXIT_USAGE, "snapshot: unexpected argument '%s'", argv[i]);
	if (!o.output)
		die(EXIT_USAGE, "snapshot: -o FILE is required");
	raw = read_live(&t, &len);
	write_snapshot(o.output, raw, len);
	free(raw);
	wq_table_free(&t);
	return 0;
}

static int cmd_run(int argc, char **argv)
{
	struct wq_table t;
	struct opts o;
	struct sigaction ign = { .sa_handler = SIG_IGN }, oint, oquit;
	int i = parse_opts(argc, argv, "run", "onswfj", &o);
	int status, code;
	size_t len;
	char *raw;
	pid_t pid;

	if (i >= argc)
		die(EXIT_USAGE, "run: no command (wqstat run [-o FILE] -- CMD [ARGS...])");
	find_tracefs();
	control("workqueue_stat_reset", "1");
	control("workqueue_stat_enabled", "1");
	sigaction(SIGINT, &ign, &oint);
	sigaction(SIGQUIT, &ign, &oquit);
	pid = fork();
	if (pid < 0)
		die(EXIT_DATA, "run: fork failed: %s", strerror(errno));
	if (!pid) {
		sigaction(SIGINT, &oint, NULL);
		sigaction(SIGQUIT, &oquit, NULL);
		execvp(argv[i], argv + i);
		fprintf(stderr, "wqstat: run: cannot run '%s': %s\n", argv[i], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			die(EXIT_DATA, "run: waitpid failed: %s", strerror(errno));
	}
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGQUIT, &oquit, NULL);
	control("workqueue_stat_enabled", "0");
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

	raw = read_live(&t, &len);
	if (o.output)
		write_snapshot(o.output, raw, len);
	free(raw);
	print_table(&t, &o);
	wq_table_free(&t);
	return code;
}

static int cmd_diff(int argc, char **argv)
{
	struct wq_table a, b;
	struct wq_diff d;
	struct opts o;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int i = parse_opts(argc, argv, "diff", "nj", &o);

	if (argc - i != 2)
		die(EXIT_USAGE, "diff: needs two snapshot files, A and B");
	read_file(argv[i], &a);
	read_file(argv[i + 1], &b);
	if (wq_diff(&a, &b, &d))
		die(EXIT_DATA, "out of memory");
	mem = open_memstream(&buf, &len);
	if (!mem)
		die(EXIT_DATA, "out of memory");
	if (o.json)
		wq_print_diff_json(mem, &d, argv[i], argv[i + 1], o.top);
	else
		wq_print_diff_text(mem, &d, o.top);
	if (fclose(mem))
		die(EXIT_DATA, "out of memory");
	emit(buf, len);
	wq_diff_free(&d);
	wq_table_free(&a);
	wq_table_free(&b);
	return 0;
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
	if (!strcmp(cmd, "help"))
		return printf(usage_text, wq_key_names()) < 0;
	die(EXIT_USAGE, "unknown command '%s' (see wqstat --help)", cmd);
}
