// SPDX-License-Identifier: GPL-2.0
/*
 * wqstat - the live tracer through tracefs, and the one error printer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "wqstat.h"

static int die_status = -1;	/* wq_die_status() */

void wq_die_status(int code)
{
	die_status = code;
}

/* The one error printer: a line on stderr, then exit. */
void wq_die(int code, const char *fmt, ...)
{
	va_list ap;

	if (die_status >= 0)
		code = die_status;
	fflush(stdout);
	fputs("wqstat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

static char tracefs[4096];
static bool read_once;		/* a table was read: the tracer is there */

/* Find tracefs through /proc/mounts; mount it if needed and permitted. */
const char *wq_tracefs(void)
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
		wq_die(WQ_EXIT_DATA, "tracefs is not mounted, and only root may mount it "
		    "(mount -t tracefs nodev /sys/kernel/tracing)");
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL))
		wq_die(WQ_EXIT_DATA, "tracefs is not mounted and mounting it on /sys/kernel/tracing failed: %s",
		    strerror(errno));
	snprintf(tracefs, sizeof(tracefs), "/sys/kernel/tracing");
	return tracefs;
}

/* Explain why a tracefs file could not be used. */
static void __attribute__((noreturn)) die_file(const char *path, const char *what, int err)
{
	if (err == ENOENT && read_once)
		wq_die(WQ_EXIT_DATA, "%s: no such file any more (was tracefs unmounted?)", path);
	if (err == ENOENT)
		wq_die(WQ_EXIT_DATA, "%s: no such file: this kernel has no workqueue stat tracer "
		    "(CONFIG_WORKQUEUE_TRACER=y) or tracefs is elsewhere", path);
	if (err == EACCES || err == EPERM)
		wq_die(WQ_EXIT_DATA, "%s: permission denied (the tracer needs root)", path);
	wq_die(WQ_EXIT_DATA, "%s: cannot %s: %s", path, what, strerror(err));
}

/* Write @val to the tracefs control file @name. */
void wq_control(const char *name, const char *val)
{
	char path[4200];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", wq_tracefs(), name);
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

int wq_enabled(void)
{
	char path[4200], buf[8] = "";
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/workqueue_stat_enabled", wq_tracefs());
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die_file(path, "open it", errno);
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		int e = errno;

		close(fd);
		die_file(path, "read it", e);
	}
	close(fd);
	if (buf[0] != '0' && buf[0] != '1')
		wq_die(WQ_EXIT_DATA, "%s: '%.*s' is not 0 or 1", path, (int)strcspn(buf, "\n"), buf);
	return buf[0] == '1';
}

/* Read the whole live table into memory (text), parse it into @t. */
char *wq_read_live(struct wq_table *t, size_t *len)
{
	char path[4200], *buf = NULL;
	struct wq_error err;
	size_t cap = 0;
	FILE *f, *mem;
	char chunk[65536];
	size_t n;

	/* the table with its buckets, if this kernel has it */
	snprintf(path, sizeof(path), "%s/trace_stat/workqueues_hist", wq_tracefs());
	f = fopen(path, "r");
	if (!f && errno == ENOENT) {
		snprintf(path, sizeof(path), "%s/trace_stat/workqueues", wq_tracefs());
		f = fopen(path, "r");
	}
	if (!f)
		die_file(path, "open it", errno);
	mem = open_memstream(&buf, &cap);
	if (!mem)
		wq_die(WQ_EXIT_DATA, "out of memory");
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, mem);
	if (ferror(f))
		die_file(path, "read it", errno);
	fclose(f);
	if (fclose(mem))
		wq_die(WQ_EXIT_DATA, "out of memory");
	*len = cap;
	if (!cap)
		wq_die(WQ_EXIT_DATA, "%s: empty: is this the workqueue stat tracer?", path);
	f = fmemopen(buf, cap, "r");
	if (!f)
		wq_die(WQ_EXIT_DATA, "out of memory");
	if (wq_parse(f, path, t, &err))
		wq_die(WQ_EXIT_DATA, "%s", err.msg);
	fclose(f);
	read_once = true;
	return buf;
}


void wq_filter_init(struct wq_filter *f, const char *wq_re, const char *fn_re)
{
	char msg[256];
	int rc;

	memset(f, 0, sizeof(*f));
	if (wq_re) {
		rc = regcomp(&f->wre, wq_re, REG_EXTENDED | REG_NOSUB);
		if (rc) {
			regerror(rc, &f->wre, msg, sizeof(msg));
			wq_die(WQ_EXIT_USAGE, "-w '%s': %s", wq_re, msg);
		}
		f->has_wq = true;
	}
	if (fn_re) {
		rc = regcomp(&f->fre, fn_re, REG_EXTENDED | REG_NOSUB);
		if (rc) {
			regerror(rc, &f->fre, msg, sizeof(msg));
			wq_die(WQ_EXIT_USAGE, "-f '%s': %s", fn_re, msg);
		}
		f->has_fn = true;
	}
}

void wq_filter_apply(const struct wq_filter *f, struct wq_table *t)
{
	size_t i, k = 0;

	for (i = 0; i < t->nr; i++) {
		struct wq_row *r = &t->rows[i];

		if ((f->has_wq && regexec(&f->wre, r->workqueue, 0, NULL, 0)) ||
		    (f->has_fn && regexec(&f->fre, r->function, 0, NULL, 0))) {
			wq_row_free(r);
			continue;
		}
		t->rows[k++] = *r;
	}
	t->nr = k;
}

void wq_filter_free(struct wq_filter *f)
{
	if (f->has_wq)
		regfree(&f->wre);
	if (f->has_fn)
		regfree(&f->fre);
}
