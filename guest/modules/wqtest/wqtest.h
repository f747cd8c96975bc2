/* SPDX-License-Identifier: GPL-2.0 */
/* wqtest: what core.c and stress.c share */
#ifndef WQTEST_H
#define WQTEST_H

void wqt_result_set(const char *fmt, ...) __printf(1, 2);
int wqt_scn_stress(unsigned int seconds, unsigned int life_max);
int wqt_scn_pctl(const char *mode, unsigned int n);

#endif
