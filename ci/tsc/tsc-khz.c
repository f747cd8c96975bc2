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
 * nothing on stdout, on a host that is not x86; whether the host's TSC
 * ticks at a constant rate is ci/guest.sh's to check (/proc/cpuinfo).
 */
#include <stdio.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#define TRIES	2000

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
