// SPDX-License-Identifier: GPL-2.0
/*
 * tsc-khz: print the host's TSC frequency in kHz, measured against
 * CLOCK_MONOTONIC_RAW over 200 ms.
 *
 * ci/guest.sh passes it to TCG guests as tsc_early_khz=: under TCG the
 * guest's TSC is the host's counter, and a guest left to calibrate it
 * against the PIT in a busy loop measures nonsense when the host
 * deschedules its vCPU there.  Each end of the interval is the reading of
 * the TSC taken between the two closest clock readings of 2,000 tries, so
 * a preemption between them does not move the result.  Exit status 1, and
 * nothing on stdout, when the counter cannot be used (not x86, or a TSC
 * that does not tick at a constant rate in every state).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#define TRIES	2000

/* Does /proc/cpuinfo list every flag of @flags (space-separated)? */
static int has_flags(const char *flags)
{
	char line[8192 + 2], want[256], *f, *save;
	FILE *cpuinfo = fopen("/proc/cpuinfo", "r");
	int found = 0;
	size_t len;

	if (!cpuinfo)
		return 0;
	while (fgets(line, sizeof(line) - 2, cpuinfo))
		if (!strncmp(line, "flags", 5)) {
			found = 1;
			break;
		}
	fclose(cpuinfo);
	if (!found)
		return 0;
	/* every flag between two spaces, the last one too */
	len = strcspn(line, "\n");
	line[len] = ' ';
	line[len + 1] = '\0';
	snprintf(want, sizeof(want), "%s", flags);
	for (f = strtok_r(want, " ", &save); f; f = strtok_r(NULL, " ", &save)) {
		char word[64];

		snprintf(word, sizeof(word), " %s ", f);
		if (!strstr(line, word))
			return 0;
	}
	return 1;
}

static double ns_of(const struct timespec *t)
{
	return t->tv_sec * 1e9 + t->tv_nsec;
}

#if defined(__x86_64__) || defined(__i386__)
/* One (TSC, time) pair: the closest-bracketed of TRIES readings. */
static void pair(unsigned long long *tsc, double *ns)
{
	double best = -1;
	int i;

	for (i = 0; i < TRIES; i++) {
		struct timespec a, b;
		unsigned long long c;

		clock_gettime(CLOCK_MONOTONIC_RAW, &a);
		c = __rdtsc();
		clock_gettime(CLOCK_MONOTONIC_RAW, &b);
		if (best < 0 || ns_of(&b) - ns_of(&a) < best) {
			best = ns_of(&b) - ns_of(&a);
			*tsc = c;
			*ns = (ns_of(&a) + ns_of(&b)) / 2;
		}
	}
}
#endif

int main(void)
{
#if defined(__x86_64__) || defined(__i386__)
	struct timespec d = { 0, 200 * 1000 * 1000 };
	unsigned long long c0, c1;
	double n0, n1;

	if (!has_flags("tsc constant_tsc nonstop_tsc")) {
		fprintf(stderr, "tsc-khz: the host's TSC does not tick at a constant rate\n");
		return 1;
	}
	pair(&c0, &n0);
	nanosleep(&d, NULL);
	pair(&c1, &n1);
	if (c1 <= c0 || n1 <= n0) {
		fprintf(stderr, "tsc-khz: the TSC or the clock went backwards\n");
		return 1;
	}
	printf("%.0f\n", (c1 - c0) / (n1 - n0) * 1e6);
	return 0;
#else
	fprintf(stderr, "tsc-khz: not an x86 host\n");
	return 1;
#endif
}
